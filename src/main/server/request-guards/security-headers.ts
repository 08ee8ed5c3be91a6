import type { HelmetOptions } from 'helmet';

/**
 * Security headers on every response, from helmet: served pages may load only what this server
 * serves, nothing may frame them, and no response is sniffed. No HSTS and no
 * upgrade-insecure-requests: the server speaks plain HTTP on loopback (a team server's TLS proxy
 * sets its own).
 */
export const SECURITY_HEADERS: HelmetOptions = {
  hsts: false,
  frameguard: { action: 'deny' },
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
};
