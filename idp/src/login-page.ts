import { escapeHtml, page } from './html.js';

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid username or password.';
export const ACCOUNT_DISABLED_MESSAGE = 'Account is disabled, contact your administrator.';

export interface LoginPageOptions {
  realm: string;
  /** The authorization endpoint: the form posts back to it. */
  action: string;
  /** The authorization request's parameters, carried through the form unchanged. */
  hiddenFields: ReadonlyArray<readonly [string, string]>;
  username?: string;
  error?: string;
}

/** The login form. Every value from the request is escaped; nothing loads from elsewhere. */
export function renderLoginPage(options: LoginPageOptions): string {
  const invalid = options.error === undefined ? '' : ' aria-invalid="true" aria-describedby="login-error"';
  const error =
    options.error === undefined
      ? ''
      : `<p id="login-error" class="error" role="alert">${escapeHtml(options.error)}</p>\n`;
  const hidden = options.hiddenFields
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const body = `<h1>Sign in to your account</h1>
${error}<form method="post" action="${escapeHtml(options.action)}">
<label for="username">Username or email</label>
<input id="username" name="username" type="text" value="${escapeHtml(options.username ?? '')}" autocomplete="username" autocapitalize="none" spellcheck="false" required autofocus${invalid}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${invalid}>
${hidden}
<button type="submit">Sign in</button>
</form>`;
  return page({ title: `Sign in to ${options.realm}`, realm: options.realm, body });
}
