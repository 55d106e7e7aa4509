/**
 * Starts the server: reads the settings, builds the app, listens, and closes on SIGTERM/SIGINT: connections without a
 * request in progress at once, the others after their answer; whatever is still open after SHUTDOWN_TIMEOUT is cut
 * off and the process exits with 1.
 */
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { trackConnections } from './shutdown.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const app = await buildApp(config);
  const connections = trackConnections(app.server);
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    app.log.info({ signal }, 'closing');
    const timer = setTimeout(() => {
      app.log.error({ shutdownTimeout: config.shutdownTimeout }, 'close timed out: exiting');
      process.exit(1);
    }, config.shutdownTimeout * 1000);
    timer.unref();
    connections.closeIdle();
    app.close().then(
      () => process.exit(0),
      (error) => {
        app.log.error({ err: error }, 'close failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
