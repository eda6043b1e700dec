import type { Request } from 'express';

/**
 * The API caller's IP as express resolved it (honouring `trust proxy`), with the IPv4-mapped IPv6
 * prefix removed so providers get a plain IPv4 address.
 */
export function clientIp(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? '';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}
