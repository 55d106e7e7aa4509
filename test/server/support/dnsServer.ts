/**
 * A small authoritative DNS server for tests (dns2, UDP on 127.0.0.1): it answers the TXT records a test publishes,
 * NXDOMAIN for names it has none of, and SERVFAIL for the names a test makes fail. The app asks it through
 * DNS_SERVERS, as an air-gapped installation names its resolver.
 *
 *   const dns = await startDnsServer();          // dns.server: '127.0.0.1:PORT', for DNS_SERVERS
 *   dns.publish('_x.example.com', 'value');      // … dns.close()
 */
import dns2 from 'dns2';

const { Packet } = dns2;
/** RFC 1035 §4.1.1's response codes (dns2 2.x has them at run time, not in its types). */
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3 } as const;

export interface TestDnsServer {
  /** `127.0.0.1:PORT`. */
  server: string;
  /** Adds a TXT record at the name. */
  publish(name: string, text: string): void;
  /** Removes every record of the name. */
  unpublish(name: string): void;
  /** The name's queries answer SERVFAIL (a resolver's failure) until published again. */
  fail(name: string): void;
  /** The names asked for, in order. */
  readonly queries: string[];
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const records = new Map<string, string[]>();
  const failing = new Set<string>();
  const queries: string[] = [];
  const key = (name: string) => name.toLowerCase().replace(/\.$/, '');
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = key(question?.name ?? '');
      queries.push(name);
      if (failing.has(name)) response.header.rcode = RCODE.SERVFAIL;
      else if (!records.has(name)) response.header.rcode = RCODE.NXDOMAIN;
      else if (question!.type === Packet.TYPE.TXT) {
        for (const text of records.get(name)!) response.answers.push({ name: question!.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data: text } as never);
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return {
    server: `127.0.0.1:${addresses.udp!.port}`,
    publish: (name, text) => {
      failing.delete(key(name));
      records.set(key(name), [...(records.get(key(name)) ?? []), text]);
    },
    unpublish: (name) => {
      records.delete(key(name));
    },
    fail: (name) => {
      failing.add(key(name));
    },
    queries,
    close: () => server.close(),
  };
}
