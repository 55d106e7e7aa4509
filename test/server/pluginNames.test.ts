import { expect } from 'chai';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { namePluginsByFunction } from '../../src/server/pluginNames.js';

const DISPLAY_NAME = Symbol.for('fastify.display-name');

describe('plugins named by their function (src/server/pluginNames.ts)', () => {
  let app: FastifyInstance;
  afterEach(async () => app?.close());

  it("gives each named plugin, nested ones too, its function's name as Fastify's display name, which Fastify then uses", async () => {
    app = Fastify();
    namePluginsByFunction(app);
    const seen: string[] = [];
    const innerRoutes: FastifyPluginAsync = async (scope) => {
      seen.push(scope.pluginName);
    };
    const outerRoutes: FastifyPluginAsync = async (scope) => {
      seen.push(scope.pluginName);
      await scope.register(innerRoutes);
    };
    await app.register(outerRoutes);
    await app.ready();
    expect((outerRoutes as unknown as Record<symbol, string>)[DISPLAY_NAME]).to.equal('outerRoutes');
    expect((innerRoutes as unknown as Record<symbol, string>)[DISPLAY_NAME]).to.equal('innerRoutes');
    expect(seen[0]).to.match(/outerRoutes/);
    expect(seen[1]).to.match(/innerRoutes/);
  });

  it('leaves an anonymous plugin and one already named as they are', async () => {
    app = Fastify();
    namePluginsByFunction(app);
    const plugins = [async () => undefined, Object.assign(async function named() {}, { [DISPLAY_NAME]: 'given' })];
    for (const plugin of plugins) await app.register(plugin);
    await app.ready();
    expect(Object.getOwnPropertySymbols(plugins[0]!)).to.deep.equal([]);
    expect((plugins[1] as unknown as Record<symbol, string>)[DISPLAY_NAME]).to.equal('given');
  });
});
