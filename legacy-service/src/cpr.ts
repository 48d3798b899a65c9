/**
 * OS2mo's CPR check (`util.is_cpr_number`): ten digits whose first six are a real date, the century
 * following from the control digits. No modulus-11 check, as in OS2mo.
 */
export function isCprNumber(value: string): boolean {
  return cprBirthdate(value) !== null;
}

/** The birth date a CPR number gives (YYYY-MM-DD), or null for a number that is not one. */
export function cprBirthdate(value: string): string | null {
  if (!/^\d{10}$/.test(value)) return null;
  const day = Number(value.slice(0, 2));
  const month = Number(value.slice(2, 4));
  const year = Number(value.slice(4, 6));
  const control = Number(value.slice(6, 10));
  const century =
    control < 4000
      ? 1900
      : control < 5000
        ? year <= 36
          ? 2000
          : 1900
        : control < 9000
          ? year <= 57
            ? 2000
            : 1800
          : year <= 36
            ? 2000
            : 1900;
  const date = new Date(Date.UTC(century + year, month - 1, day));
  const valid =
    date.getUTCFullYear() === century + year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return valid ? date.toISOString().slice(0, 10) : null;
}
