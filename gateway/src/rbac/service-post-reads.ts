/**
 * `POST`s of `/service` that write nothing: OS2mo 2.4.0's `validate/*` checks (`service/validation/validate.py`,
 * mounted at `/service/validate`), which its frontend runs before a write and which answer
 * `{"success": true}` or the error the write would answer. RBAC judges them as reads: any token may send one.
 * Only the exact form is a read (one lower-case name after `/service/validate/`, an optional trailing slash);
 * any other spelling is judged as a write, so a path the backend might route elsewhere is never waved through.
 *
 * @example
 * isServicePostRead('POST', '/service/validate/cpr/'); // true
 * isServicePostRead('POST', '/service/validate/cpr/x'); // false: judged as a write
 */
export function isServicePostRead(method: string, path: string): boolean {
  return method === 'POST' && /^\/service\/validate\/[a-z]+(?:-[a-z]+)*\/?$/.test(path);
}
