import { UsageError } from '../errors/index.js';

const HOST_HINT = 'use an address of this machine, e.g. 127.0.0.1 (the default) or 0.0.0.0 for every interface';

/** What went wrong binding the address the user gave, as a usage error; anything else as is. */
export function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new UsageError('USAGE_PORT_IN_USE', `port ${port} on ${host} is in use`, { hint: 'pick another with --port, or --port 0 for any free one' });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return new UsageError('USAGE_BAD_HOST', `cannot serve the viewer on ${host}: no such host (it does not resolve to an address)`, { hint: HOST_HINT, cause: error });
    case 'EADDRNOTAVAIL':
      return new UsageError('USAGE_BAD_HOST', `cannot serve the viewer on ${host}: not an address of this machine`, { hint: HOST_HINT, cause: error });
    case 'EACCES':
      return new UsageError('USAGE_PORT_DENIED', `port ${port} on ${host}: permission denied`, { hint: 'ports below 1024 need privileges; pick another with --port' });
    default:
      return error;
  }
}
