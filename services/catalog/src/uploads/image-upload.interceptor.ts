import {
  BadRequestException,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  PayloadTooLargeException,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import multer from 'multer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Observable } from 'rxjs';
import { CatalogConfig } from '../config/catalog.config';

export const IMAGE_FIELD = 'image';

/** The image the route receives through `@UploadedFile()`: multer's file, held in memory. */
export type UploadedImage = Express.Multer.File;

/** multer as it runs: on Node's own request and response (it reads the headers and the stream, nothing more). */
type NodeMiddleware = (
  req: IncomingMessage & { file?: UploadedImage },
  res: ServerResponse,
  done: (err?: unknown) => void,
) => void;

/**
 * Reads a multipart body with one file in the `image` field into memory, refusing anything over
 * UPLOAD_MAX_BYTES with 413 while it streams (the body is never buffered past the limit). Runs after
 * the guard, so an anonymous upload is refused before a byte of it is read. The services' body parsing leaves a
 * multipart body unread, so multer streams it from the raw request; the file is then put where Nest's
 * `@UploadedFile()` reads it on Fastify, the request's `file`.
 */
@Injectable()
export class ImageUploadInterceptor implements NestInterceptor {
  private readonly upload: NodeMiddleware;
  private readonly limitText: string;

  constructor(config: CatalogConfig) {
    this.upload = multer({
      storage: multer.memoryStorage(),
      limits: { fileSize: config.UPLOAD_MAX_BYTES, files: 1, fields: 20, parts: 25 },
    }).single(IMAGE_FIELD) as unknown as NodeMiddleware; // @types/multer says Express; it needs only Node's
    const mb = config.UPLOAD_MAX_BYTES / (1024 * 1024);
    this.limitText = Number.isInteger(mb) ? `${mb} MB` : `${config.UPLOAD_MAX_BYTES} bytes`;
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const req = http.getRequest<FastifyRequest & { file?: UploadedImage }>();
    const raw: IncomingMessage & { file?: UploadedImage } = req.raw;
    await new Promise<void>((resolve, reject) =>
      this.upload(raw, http.getResponse<FastifyReply>().raw, (err) =>
        err ? reject(this.toHttpError(err)) : resolve(),
      ),
    );
    req.file = raw.file;
    return next.handle();
  }

  private toHttpError(err: unknown): Error {
    const code = (err as { code?: string }).code;
    if (code === 'LIMIT_FILE_SIZE')
      return new PayloadTooLargeException(`Image is too large: the limit is ${this.limitText}`);
    if (code === 'LIMIT_UNEXPECTED_FILE' || code === 'LIMIT_FILE_COUNT') {
      return new BadRequestException(`Send one image, in the "${IMAGE_FIELD}" field`);
    }
    return new BadRequestException('Malformed upload: send multipart/form-data with an "image" file');
  }
}
