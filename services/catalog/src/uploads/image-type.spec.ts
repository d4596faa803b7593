import { sniffImageType } from './image-type';

describe('sniffImageType', () => {
  it.each<[string, Buffer, string | undefined]>([
    ['JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]), 'jpeg'],
    ['PNG', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), 'png'],
    ['GIF89a', Buffer.from('GIF89a....', 'latin1'), 'gif'],
    ['GIF87a', Buffer.from('GIF87a....', 'latin1'), 'gif'],
    ['WebP', Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]), 'webp'],
    ['an SVG (script-capable, refused)', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), undefined],
    ['a text file', Buffer.from('hello, this is not an image'), undefined],
    [
      'a RIFF that is not WebP (WAV)',
      Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')]),
      undefined,
    ],
    ['an empty file', Buffer.alloc(0), undefined],
  ])('tells %s by its content', (_what, bytes, expected) => {
    expect(sniffImageType(bytes)).toBe(expected);
  });
});
