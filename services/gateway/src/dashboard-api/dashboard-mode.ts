import { common } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import type { Request } from 'express';

/** The mode of a mode-scoped dashboard route: `?mode=` or `X-Orquestra-Mode`, test by default. */
export function dashboardMode(req: Request): common.Mode {
  const raw = typeof req.query['mode'] === 'string' ? req.query['mode'] : req.get('x-orquestra-mode');
  if (raw === undefined || raw === '' || raw === 'test') return common.Mode.MODE_TEST;
  if (raw === 'live') return common.Mode.MODE_LIVE;
  throw new AppError('parameter_invalid', { param: 'mode', message: 'O modo (mode ou X-Orquestra-Mode) deve ser test ou live.' });
}
