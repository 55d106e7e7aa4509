/** An image's URL; of an `x.inline.svg`, its markup (webpack.config.ts). */
declare module '*.svg' {
  const urlOrMarkup: string;
  export default urlOrMarkup;
}
declare module '*.css';
