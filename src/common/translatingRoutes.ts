/**
 * The API routes whose answer is in the language `?lang=` asks for (ja by default): the names, texts and link labels
 * of services and groups, applications (their services' names, their calendar entries), the overview, product roles,
 * announcement articles. A screen's
 * call to one of them gets the page's language unless it names a `lang` itself (src/client/engine/screen/calls.ts),
 * so no screen can forget it (issue 18). Paths as screens write them (after /api/v2/); the names of placeholders do
 * not matter. check:config checks that each is a server route; test/configuration/translatingRoutes.test.ts that the
 * list is every route whose `lang` is the answer's language.
 */
export const TRANSLATING_ROUTES = [
  'GET services',
  'GET services/:id',
  'GET service_groups',
  'GET service_groups/:id',
  'GET service_groups/:id/services',
  'GET organizations/:orgId/corporate_subscriptions',
  'POST organizations/:orgId/corporate_subscriptions',
  'GET organizations/:orgId/corporate_subscriptions/:requestCode',
  'GET organizations/:orgId/corporate_subscriptions/:requestCode/calendar',
  'GET organizations/:orgId/overview',
  'PATCH organizations/:orgId/corporate_subscriptions/:requestCode',
  'PATCH organizations/:orgId/confirmed_corporate_subscriptions/:requestCode',
  'GET organizations/:orgId/product_admin_roles',
  'GET announcements/articles',
] as const;

/** `services/:id` and `services/:serviceId` are one route: a placeholder's name does not matter. */
export const routeShape = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/:[a-zA-Z][a-zA-Z0-9]*/g, ':')}`;

const TRANSLATING = new Set(
  TRANSLATING_ROUTES.map((route) => {
    const [method, path] = route.split(' ') as [string, string];
    return routeShape(method, path);
  }),
);

/** Whether a call's answer is translated by `?lang=` (version: the API's, v2 unless said). */
export function translates(method: string, path: string, version = 'v2'): boolean {
  return version === 'v2' && TRANSLATING.has(routeShape(method, path));
}
