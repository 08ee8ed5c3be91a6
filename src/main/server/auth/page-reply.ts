import type { FastifyReply } from 'fastify';

/** Answers with one of the sign-in pages (sign-in-pages.ts), never cached: it may name who is signed in. */
export const sendPage = (reply: FastifyReply, status: number, body: string): FastifyReply =>
  reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(body);
