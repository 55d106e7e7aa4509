/** Outcome.remember: values kept in localStorage for a later page (SPEC §7: projectId and projectCode for product 4). */
export function rememberValues(values: Record<string, unknown>, storage: Storage | undefined = globalThis.localStorage): void {
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'string' ? value !== '' : typeof value === 'number') storage?.setItem(name, String(value));
  }
}
