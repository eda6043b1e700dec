/**
 * Request and response bodies with exact money: request numbers are kept as their source text
 * (money-json.ts), answers are written with `Reais` amounts as exact decimal numbers.
 */
import express, { type RequestHandler, type Response } from 'express';
import { asaasErrors } from './asaas-errors';
import { parseJsonNumbersAsText, writeJson } from './money-json';

/** Parses any request body as JSON with numbers as text; an empty body is `{}`. */
export function jsonBody(limit = '1mb'): RequestHandler[] {
  return [
    express.raw({ type: () => true, limit }),
    (req, _res, next) => {
      const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
      if (raw.trim() === '') {
        req.body = {};
        return next();
      }
      try {
        req.body = parseJsonNumbersAsText(raw);
      } catch {
        throw asaasErrors.invalidJson();
      }
      next();
    },
  ];
}

export function sendJson(res: Response, status: number, value: unknown): void {
  res.status(status).type('application/json').send(writeJson(value));
}
