import http2 from 'node:http2';

/**
 * Two plaintext gRPC calls made by hand, so shared-domain can tell a Temporal frontend from
 * anything else that accepts TCP (a proxy, another service) without depending on a gRPC library:
 * both requests are a single protobuf string field, and only the gRPC status and the first
 * response byte pair are read.
 */

export class GrpcError extends Error {
  override readonly name = 'GrpcError';
  constructor(
    message: string,
    readonly grpcStatus?: number,
  ) {
    super(message);
  }
}

/** gRPC status NOT_FOUND. */
export const NOT_FOUND = 5;

function varint(n: number): Buffer {
  const bytes: number[] = [];
  while (n > 0x7f) {
    bytes.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  bytes.push(n);
  return Buffer.from(bytes);
}

/** A message whose only field is `string <name> = 1`; empty strings are omitted, as protobuf does. */
function stringField1(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  return bytes.length ? Buffer.concat([Buffer.from([0x0a]), varint(bytes.length), bytes]) : Buffer.alloc(0);
}

/** One unary call; resolves with the response message bytes when the gRPC status is OK. */
function unary(address: string, path: string, message: Buffer, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://${address}`);
    let settled = false;
    const finish = (err: Error | undefined, body?: Buffer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      session.destroy();
      if (err) reject(err);
      else resolve(body ?? Buffer.alloc(0));
    };
    const timer = setTimeout(
      () => finish(Object.assign(new GrpcError(`no gRPC answer within ${timeoutMs}ms`), { code: 'ETIMEDOUT' })),
      timeoutMs,
    );
    session.on('error', (err) => finish(err));

    const frame = Buffer.alloc(5 + message.length); // flag byte 0 (uncompressed), length, message
    frame.writeUInt32BE(message.length, 1);
    message.copy(frame, 5);
    const request = session.request({
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc',
      te: 'trailers',
    });

    const chunks: Buffer[] = [];
    let status: string | undefined;
    let statusMessage = '';
    const takeStatus = (headers: http2.IncomingHttpHeaders) => {
      if (headers['grpc-status'] !== undefined) status = String(headers['grpc-status']);
      if (headers['grpc-message'] !== undefined) statusMessage = decodeURIComponent(String(headers['grpc-message']));
    };
    request.on('response', (headers) => {
      if (headers[':status'] !== 200) finish(new GrpcError(`HTTP ${headers[':status']} instead of a gRPC answer`));
      takeStatus(headers);
    });
    request.on('trailers', takeStatus);
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('error', (err) => finish(err));
    request.on('end', () => {
      if (status === undefined) finish(new GrpcError('no gRPC status in the answer (not a gRPC server?)'));
      else if (status !== '0')
        finish(new GrpcError(`gRPC status ${status}${statusMessage ? `: ${statusMessage}` : ''}`, Number(status)));
      else finish(undefined, Buffer.concat(chunks).subarray(5));
    });
    request.end(frame);
  });
}

/** Resolves when the frontend's WorkflowService reports SERVING (what `temporal operator cluster health` asks). */
export async function temporalHealthy(address: string, timeoutMs: number): Promise<void> {
  const body = await unary(
    address,
    '/grpc.health.v1.Health/Check',
    stringField1('temporal.api.workflowservice.v1.WorkflowService'),
    timeoutMs,
  );
  // HealthCheckResponse { ServingStatus status = 1; }, SERVING = 1.
  if (!(body[0] === 0x08 && body[1] === 0x01)) throw new GrpcError(`health status ${body[1] ?? 'unset'}, not SERVING`);
}

/** Resolves when `namespace` is registered; rejects with a GrpcError (status NOT_FOUND when it does not exist). */
export async function describeNamespace(address: string, namespace: string, timeoutMs: number): Promise<void> {
  await unary(
    address,
    '/temporal.api.workflowservice.v1.WorkflowService/DescribeNamespace',
    stringField1(namespace),
    timeoutMs,
  );
}
