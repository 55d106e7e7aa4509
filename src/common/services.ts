/** A service as the Home grid shows it (SPEC §3 Service), in the reader's language; the server's answer and the client's state. */
export interface ServiceCard {
  id: number;
  name: string;
  subtitle: string;
  summary: string;
  thumbnailUrl: string | null;
  serviceGroup: { id: number; name: string };
}
