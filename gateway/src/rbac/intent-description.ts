import type { DetailType } from '../legacy/legacy-loaders.js';
import type { WriteIntent } from './write-intent.js';

/** How a refusal names a record of each detail type. */
export const detailLabel: Record<DetailType, string> = {
  engagement: 'engagement',
  manager: 'manager record',
  owner: 'owner record',
  it: 'IT account',
  address: 'address',
  association: 'association',
  role: 'role',
  leave: 'leave',
  kle: 'KLE number',
  related_unit: 'unit relation',
  engagement_association: 'engagement association',
};

export const withArticle = (label: string) => `${/^[aeiouAEIOU]/.test(label) ? 'an' : 'a'} ${label}`;

/** The intent as the object of "you may not …". */
export function describeIntent(intent: WriteIntent): string {
  switch (intent.kind) {
    case 'create_unit':
      return intent.parent === null
        ? 'create a top-level org unit'
        : `create an org unit under org unit ${intent.parent}`;
    case 'change_unit':
      return `change org unit ${intent.unit}`;
    case 'move_unit':
      return intent.parent === null
        ? `move org unit ${intent.unit} to the top level`
        : `move org unit ${intent.unit} under org unit ${intent.parent}`;
    case 'terminate_unit':
      return `terminate org unit ${intent.unit}`;
    case 'create_detail':
      return intent.unit === null
        ? `create ${withArticle(detailLabel[intent.type])} of an employee`
        : intent.inNewUnit
          ? `create ${withArticle(detailLabel[intent.type])} in a new org unit under org unit ${intent.unit}`
          : `create ${withArticle(detailLabel[intent.type])} in org unit ${intent.unit}`;
    case 'change_detail':
      return `${intent.action} ${detailLabel[intent.type]} ${intent.uuid}`;
    case 'employee':
      return intent.uuid === null
        ? `${intent.action} an employee`
        : `${intent.action} employee ${intent.uuid}`;
    case 'class':
      return `write a class in facet ${intent.facet}`;
    case 'unreadable':
      return 'send this write';
  }
}
