import pg from 'pg';
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await c.connect();
console.log((await c.query("select datname from pg_database")).rows.map(r=>r.datname));
await c.end();
