/**
 * Browser build. One small initial bundle (frame, router, store); every screen, form validator and language is a
 * chunk of its own, loaded when first needed.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import CompressionPlugin from 'compression-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import webpack, { type Configuration } from 'webpack';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * Brotli and gzip siblings of every text file of the build, index.html included (issue 26): the server sends the
 * best one the browser accepts (@fastify/static's preCompressed), compressed once at the highest levels instead of
 * on every request. Source maps are left out (no user downloads them); a file that shrinks by less than a fifth too.
 * Brotli's quality 11 costs about half a minute of CPU for the whole build (issue 48): `npm run build` (production)
 * pays it; `npm start` and the tests build 'quick', at quality 5 (under a second, about 8 % larger).
 */
export type Compression = 'best' | 'quick';
const BROTLI_QUALITY: Record<Compression, number> = { best: 11, quick: 5 };
const COMPRESSIBLE = /\.(?:js|css|html|svg|json|txt)$/;
const compressedSiblings = (compression: Compression) => [
  new CompressionPlugin<zlib.BrotliOptions>({ filename: '[path][base].br', algorithm: 'brotliCompress', test: COMPRESSIBLE, threshold: 0, compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[compression] } } }),
  new CompressionPlugin({ filename: '[path][base].gz', algorithm: 'gzip', test: COMPRESSIBLE, threshold: 0, compressionOptions: { level: 9 } }),
];

export function webpackConfig(mode: 'production' | 'development' = 'production', compression: Compression = 'best'): Configuration {
  return {
    mode,
    context: root,
    entry: { main: './src/client/app/main.tsx' },
    output: {
      path: path.join(root, 'dist'),
      publicPath: '/',
      filename: 'assets/[name].[contenthash:8].js',
      // by id alone: the runtime's map of chunk files then holds no names (about 2 KB of the first load)
      chunkFilename: mode === 'production' ? 'assets/[id].[contenthash:8].js' : 'assets/[name].[contenthash:8].js',
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      clean: true,
    },
    // eval-based source maps would need 'unsafe-eval', which the Content-Security-Policy forbids.
    devtool: mode === 'production' ? 'source-map' : 'cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
      alias: {
        // react-router's package exports name its development build only (its warnings kept); the production build beside it
        ...(mode === 'production' ? { 'react-router$': path.join(root, 'node_modules/react-router/dist/production/index.mjs'), 'react-router/dom$': path.join(root, 'node_modules/react-router/dist/production/dom-export.mjs') } : {}),
        // the learner grid takes no formulas: react-spreadsheet's formula parser is left out (noFormulas.ts says why)
        'fast-formula-parser$': path.join(root, 'src/client/widgets/learnerGrid/noFormulas.ts'),
        // the forms turn no Markdown on: RJSF's Markdown renderer is left out (noMarkdown.tsx says why)
        'markdown-to-jsx/react$': path.join(root, 'src/client/engine/forms/noMarkdown.tsx'),
      },
    },
    module: {
      // every lazily loaded chunk at the browser's high priority, as the data calls beside it are: on HTTP/1.1's six
      // connections a low-priority chunk of the route waited behind every call of the page (issue 47: the wizard's form
      // engine arrived after its six calls and the frame's four). A chunk of a template import() (a screen's, a form's,
      // words) is not given one: webpack leaves those low.
      parser: { javascript: { dynamicImportFetchPriority: 'high' } },
      rules: [
        { test: /\.tsx?$/, loader: 'esbuild-loader', options: { target: 'es2020', jsx: 'automatic' } },
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
        // react-spreadsheet would add its stylesheet as a <style> element, which the CSP refuses (styles.css has it)
        { test: /[\\/]node_modules[\\/]react-spreadsheet[\\/]dist[\\/].*\.js$/, loader: path.join(root, 'scripts/stripStyleInject.cjs') },
        // an image drawn in the page's own DOM (the header's logo): an <img> of SVG is a document of its own, whose
        // creation and text layout took the page's thread 20–45 ms on every first load (issue 47)
        { test: /\.inline\.svg$/, type: 'asset/source' },
        { test: /\.(svg|png)$/, exclude: /\.inline\.svg$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      new HtmlWebpackPlugin({ template: './src/client/app/index.html', favicon: './src/client/app/favicon.png', scriptLoading: 'defer' }),
      // moment's locales are all reachable through one dynamic require (about 50 KB gzip); dates.ts formats by itself
      new webpack.IgnorePlugin({ resourceRegExp: /^\.\/locale$/, contextRegExp: /moment$/ }),
      // RJSF's decimal mark: the portal's languages', not asked of Intl at every number field's render (decimalSeparator.ts)
      new webpack.NormalModuleReplacementPlugin(/^\.\/getDecimalSeparator\.js$/, (resource: { context: string; request: string }) => {
        if (/[\\/]@rjsf[\\/]utils[\\/]/.test(resource.context)) resource.request = path.join(root, 'src/client/engine/forms/decimalSeparator.ts');
      }),
      // V8's explicit compile hint (v8.dev/blog/explicit-compile-hints): the first load's functions are compiled on a
      // background thread as the file streams in, not each on the main thread when first called during the first
      // load's evaluation. After the minifier, which would drop the comment; before the source maps and compression.
      // The script only: CSS has no line comments, and a browser drops the stylesheet's first rule (:root, the
      // design's colours and fonts) behind it.
      new webpack.BannerPlugin({ banner: '//# allFunctionsCalledOnLoad', raw: true, entryOnly: true, test: /\.js$/, stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1 }),
      new MiniCssExtractPlugin({ filename: 'assets/[name].[contenthash:8].css', chunkFilename: mode === 'production' ? 'assets/[id].[contenthash:8].css' : 'assets/[name].[contenthash:8].css' }),
      ...(mode === 'production' ? compressedSiblings(compression) : []),
    ],
    // A library that one lazily loaded part uses arrives in that part's chunk, not in a chunk of its own (one request
    // less per library, issue 26); one that several parts share still gets its own.
    optimization: { splitChunks: { chunks: 'async', cacheGroups: { defaultVendors: false } } },
    performance: { hints: false },
  };
}

export default webpackConfig();
