const DEFAULT_CODES = {
  400: 'validation-error',
  403: 'forbidden',
  404: 'not-found',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
} as const;

/**
 * A fault of the request itself, found before any handler ran: the body parsers' errors
 * (http-errors with a 4xx status and a `type`), a path Express could not decode, and this service's
 * own edge checks. Every audience's renderer turns one into its own format, so a bad request is
 * never a 500.
 */
export class ClientError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 413 | 415,
    readonly detail: string,
    /** Stable name of the fault, the problem `type` of the integrator and admin APIs. */
    readonly code: string = DEFAULT_CODES[status],
  ) {
    super(detail);
  }
}

const BODY_ERRORS: Record<string, { status: ClientError['status']; detail: string }> = {
  'entity.parse.failed': { status: 400, detail: 'the body is not valid for its media type' },
  'entity.too.large': { status: 413, detail: 'the body is larger than this endpoint accepts' },
  'entity.verify.failed': { status: 400, detail: 'the body is not acceptable' },
  'request.aborted': { status: 400, detail: 'the body ended early' },
  'request.size.invalid': { status: 400, detail: 'the body is shorter or longer than Content-Length' },
  'encoding.unsupported': { status: 415, detail: 'unsupported Content-Encoding' },
  'charset.unsupported': { status: 415, detail: 'unsupported charset; send UTF-8' },
  'parameters.too.many': { status: 413, detail: 'too many form parameters' },
};

/** The ClientError `err` stands for, or undefined when it is a fault of the service. */
export function clientErrorOf(err: unknown): ClientError | undefined {
  if (err instanceof ClientError) return err;
  if (!err || typeof err !== 'object') return undefined;
  const { type, status } = err as { type?: unknown; status?: unknown };
  const known = typeof type === 'string' ? BODY_ERRORS[type] : undefined;
  if (known) return new ClientError(known.status, known.detail);
  // Express's decoding of path parameters; a broken gzip stream read by a body parser.
  if (err instanceof URIError) return new ClientError(400, 'malformed percent-encoding in the path');
  if (status === 400) return new ClientError(400, 'the body could not be read (e.g. broken compression)');
  if (status === 413) return new ClientError(413, 'the body is larger than this endpoint accepts');
  if (status === 415) return new ClientError(415, 'unsupported media type or encoding');
  return undefined;
}
