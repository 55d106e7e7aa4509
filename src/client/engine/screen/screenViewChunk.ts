/**
 * The block engine, one chunk shared by every screen made of blocks: loaded by the router, the gallery and the route's
 * preload (preload.ts), which share this one `import()`. Nothing inside the engine imports this module.
 */
export const importScreenView = () => import(/* webpackChunkName: "screen-view" */ './ScreenView.js');
