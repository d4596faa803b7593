import {
  Controller,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Req,
  Res,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { Auth } from '@shop/nest-common';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { seedArtSvg } from '../seed/catalogue';
import { ImageUploadInterceptor } from './image-upload.interceptor';
import { UPLOAD_NAME, UploadsService } from './uploads.service';

const IMAGE_NOT_FOUND = 'Image not found';
/** Served SVGs are our own drawings; still, nothing in them may run or load anything. */
const SVG_HEADERS = {
  'Content-Type': 'image/svg+xml; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'public, max-age=86400',
};

@Controller()
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  @Post('api/upload')
  @Auth('admin')
  @HttpCode(201)
  @UseInterceptors(ImageUploadInterceptor)
  upload(@UploadedFile() file: Express.Multer.File | undefined) {
    return this.uploads.store(file);
  }

  /** The seed catalogue's art, drawn on request (and remembered): it loads offline, with no file on disk. */
  @Get('uploads/seed/:file')
  seedArt(@Param('file') file: string, @Req() req: Request, @Res() res: Response) {
    const svg = seedArtSvg(file);
    if (!svg) throw new NotFoundException(IMAGE_NOT_FOUND);
    const etag = `"${createHash('sha1').update(svg).digest('base64url')}"`;
    res.set({ ...SVG_HEADERS, ETag: etag });
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.status(200).send(svg);
  }

  /** Uploaded images: only names this service gave, from the upload directory, immutable. */
  @Get('uploads/:file')
  uploaded(@Param('file') file: string, @Res() res: Response) {
    if (!UPLOAD_NAME.test(file)) throw new NotFoundException(IMAGE_NOT_FOUND);
    res.sendFile(
      file,
      {
        root: this.uploads.dir,
        dotfiles: 'deny',
        headers: { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=31536000, immutable' },
      },
      (err?: NodeJS.ErrnoException & { status?: number }) => {
        if (!err || res.headersSent) return;
        const status = err.status ?? (err.code === 'ENOENT' ? 404 : 500);
        res
          .status(status)
          .json({ statusCode: status, message: status === 404 ? IMAGE_NOT_FOUND : 'Internal server error' });
      },
    );
  }
}
