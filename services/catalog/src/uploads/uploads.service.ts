import type { UploadResponse } from '@shop/contracts';
import { BadRequestException, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { ReadStream } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { assetUrlsOf } from '../config/asset-urls';
import { CatalogConfig } from '../config/catalog.config';
import { sniffImageType, UNSUPPORTED_IMAGE } from './image-type';

/** Longest side of a stored image; larger uploads are scaled down, smaller ones kept. */
export const MAX_IMAGE_SIDE = 1600;
/** Decompression-bomb guard: a 5 MB file may claim billions of pixels. */
const MAX_INPUT_PIXELS = 40_000_000;
/** Names this service gives stored files (nothing else under the upload dir is ever served). */
const UPLOAD_NAME = /^[a-f0-9]{32}\.webp$/;

/** A stored image, opened to be sent: its bytes as a stream (it closes the file) and their number. */
export interface StoredImage {
  stream: ReadStream;
  size: number;
}

/**
 * Stores uploaded product images: type checked by content, re-encoded with sharp to WebP (orientation
 * applied, EXIF/GPS and every other metadata dropped, long side at most 1600 px), saved under
 * UPLOAD_DIR with a random name. The original bytes are never stored or served.
 */
@Injectable()
export class UploadsService implements OnModuleInit {
  private readonly logger = new Logger(UploadsService.name);

  constructor(private readonly config: CatalogConfig) {}

  async onModuleInit(): Promise<void> {
    await fs.mkdir(this.config.UPLOAD_DIR, { recursive: true });
  }

  /** The stored image of that name, opened (then sized, so it cannot vanish in between); undefined if none. */
  async open(name: string): Promise<StoredImage | undefined> {
    if (!UPLOAD_NAME.test(name)) return undefined;
    let file: FileHandle;
    try {
      file = await fs.open(path.join(this.config.UPLOAD_DIR, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    const stat = await file.stat().catch(async (err: unknown) => {
      await file.close();
      throw err;
    });
    if (stat.isFile()) return { stream: file.createReadStream(), size: stat.size };
    await file.close();
    return undefined;
  }

  async store(file: { buffer: Buffer } | undefined): Promise<UploadResponse> {
    if (!file || !file.buffer?.length) throw new BadRequestException('No file uploaded');
    if (!sniffImageType(file.buffer)) throw new BadRequestException(UNSUPPORTED_IMAGE);
    let webp: Buffer;
    try {
      webp = await sharp(file.buffer, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
        .rotate()
        .resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 82 })
        .toBuffer();
    } catch (err) {
      this.logger.warn(`upload refused: ${(err as Error).message}`);
      throw new BadRequestException('The image could not be read: it is damaged or too large in pixels');
    }
    const name = `${randomBytes(16).toString('hex')}.webp`;
    await fs.writeFile(path.join(this.config.UPLOAD_DIR, name), webp, { flag: 'wx' });
    return { imageUrl: assetUrlsOf(this.config).toPublic(`${this.config.UPLOADS_PUBLIC_URL}/${name}`) };
  }
}
