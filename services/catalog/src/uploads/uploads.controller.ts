import {
  Controller,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Req,
  Res,
  StreamableFile,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNotModifiedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, Auth } from '@shop/nest-common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { seedArtSvg } from '../seed/catalogue';
import { UploadResultBody } from '../products/dto/product.response';
import { ImageUploadInterceptor, type UploadedImage } from './image-upload.interceptor';
import { UploadsService } from './uploads.service';

const IMAGE_NOT_FOUND = 'Image not found';
/** Served SVGs are our own drawings; still, nothing in them may run or load anything. */
const SVG_HEADERS = {
  'Content-Type': 'image/svg+xml; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'public, max-age=86400',
};

const binary = { type: 'string', format: 'binary' } as const;

@ApiTags('images')
@Controller()
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  @Post('api/upload')
  @Auth('admin')
  @HttpCode(201)
  @UseInterceptors(ImageUploadInterceptor)
  @ApiTags('admin')
  @ApiOperation({ summary: 'Upload a product image (JPEG, PNG, WebP or GIF by content, at most 5 MB)' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { image: binary }, required: ['image'] } })
  @ApiCreatedResponse({ type: UploadResultBody })
  @ApiErrors({ 400: 'No file uploaded, or an unsupported type' }, 413)
  upload(@UploadedFile() file: UploadedImage | undefined) {
    return this.uploads.store(file);
  }

  /** The seed catalogue's art, drawn on request (and remembered): it loads offline, with no file on disk. */
  @Get('uploads/seed/:file')
  @ApiOperation({ summary: "The seed catalogue's drawings (SVG, with an ETag)" })
  @ApiParam({ name: 'file', schema: { type: 'string' }, example: 'chiefs-home-jersey.svg' })
  @ApiOkResponse({ description: 'The drawing', content: { 'image/svg+xml': { schema: binary } } })
  @ApiNotModifiedResponse({ description: 'If-None-Match matched' })
  @ApiErrors({ 404: 'Image not found' })
  seedArt(@Param('file') file: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const svg = seedArtSvg(file);
    if (!svg) throw new NotFoundException(IMAGE_NOT_FOUND);
    const etag = `"${createHash('sha1').update(svg).digest('base64url')}"`;
    void reply.headers({ ...SVG_HEADERS, ETag: etag });
    if (req.headers['if-none-match'] === etag) {
      void reply.status(304).send();
      return;
    }
    void reply.status(200).send(svg);
  }

  /** Uploaded images: only names this service gave, from the upload directory, immutable. */
  @Get('uploads/:file')
  @ApiOperation({ summary: 'An uploaded image (immutable: its name is its content)' })
  @ApiParam({ name: 'file', schema: { type: 'string' }, description: 'A name POST /api/upload gave' })
  @ApiOkResponse({
    description: 'The image',
    content: Object.fromEntries(['webp', 'jpeg', 'png', 'gif'].map((t) => [`image/${t}`, { schema: binary }])),
  })
  @ApiErrors({ 404: 'Image not found' })
  async uploaded(
    @Param('file') file: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile> {
    const image = await this.uploads.open(file);
    if (!image) throw new NotFoundException(IMAGE_NOT_FOUND);
    // Only on the image itself: a 404 must not be kept for a year.
    void reply.headers({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=31536000, immutable' });
    return new StreamableFile(image.stream, { type: 'image/webp', length: image.size });
  }
}
