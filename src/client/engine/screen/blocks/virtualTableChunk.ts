/**
 * A virtualised table's view and its virtualizer (@tanstack/react-virtual), one chunk apart from the block engine
 * (issue 47): they were half of its 74 KB, which crossed a new connection's first congestion window (~14 KB
 * compressed) and took Lighthouse's simulated slow 4G a round trip more on every page. Loaded by the table block and,
 * as the route is matched, by the route's preload of a screen that shows one (RoutePreload.virtualTable).
 */
export const importVirtualTable = () => import(/* webpackChunkName: "virtual-table" */ './VirtualTableView.js');
