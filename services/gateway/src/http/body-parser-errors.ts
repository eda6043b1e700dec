import { AppError } from '@orquestra/platform';

interface BodyParserError {
  type: string;
  status?: number;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return typeof error === 'object' && error !== null && typeof (error as { type?: unknown }).type === 'string';
}

/**
 * Translates body-parser failures (they carry `type` and a 4xx `status`) into our codes, so that a
 * bad body never reaches the client as an HTML page or a stack trace. Undefined for other errors.
 */
export function appErrorFromBodyParser(error: unknown): AppError | undefined {
  if (!isBodyParserError(error)) return undefined;
  switch (error.type) {
    case 'entity.parse.failed':
      return new AppError('invalid_json', { cause: error });
    case 'entity.too.large':
      return new AppError('invalid_request', {
        message: 'O corpo da requisição excede o limite de 1 MB. Envie um corpo menor.',
        cause: error,
      });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('invalid_request', {
        message: 'Codificação do corpo não suportada. Envie o corpo em UTF-8, sem compressão.',
        cause: error,
      });
    case 'request.aborted':
    case 'request.size.invalid':
      return new AppError('invalid_request', {
        message: 'O corpo da requisição chegou incompleto. Reenvie a requisição.',
        cause: error,
      });
    default:
      return error.status !== undefined && error.status >= 400 && error.status < 500
        ? new AppError('invalid_request', { cause: error })
        : undefined;
  }
}
