import { BadRequestException, Body, Controller, Get, Module, Param, Post, Req, Res } from '@nestjs/common';
import { REQUEST_ID_HEADER } from '@shop/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceConfig } from '../config/service-config';
import { startTestService, type TestService } from '../testing';
import { JSON_BODY_LIMIT, JSON_BODY_MESSAGES } from './json-body';
import { ServiceDefaultsModule } from './service-defaults.module';

@Controller('api/things')
class ThingsController {
  @Get('export.csv')
  exportCsv(@Res({ passthrough: true }) reply: FastifyReply) {
    void reply.type('text/csv; charset=utf-8');
    throw new BadRequestException('Bad date');
  }

  @Get(':id')
  one(@Param('id') id: string, @Req() req: FastifyRequest) {
    return { id, ip: req.ip };
  }

  @Post()
  echo(@Body() body: unknown) {
    return { body: body === undefined ? 'unread' : body };
  }
}

@Module({
  imports: [ServiceDefaultsModule.forRoot({ service: 'catalog', config: ServiceConfig })],
  controllers: [ThingsController],
})
class ThingsService {}

/** An answer's JSON body, typed loosely for the assertions. */
const json = (res: Response) => res.json() as Promise<{ message?: string; ip?: string }>;

const post = (url: string, body: string | Buffer, contentType = 'application/json') =>
  fetch(`${url}/api/things`, { method: 'POST', headers: { 'content-type': contentType }, body });

/** The HTTP pipeline every service gets from startServiceApp (Nest on Fastify), through a real server. */
describe('startServiceApp: the HTTP pipeline (real dev servers)', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService('catalog', ThingsService, { env: { TRUSTED_PROXIES: 'loopback' } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  describe('JSON bodies', () => {
    it('parses an object or an array, and reads an empty JSON body as {}', async () => {
      expect(await (await post(svc.url, '{"name":"Zoë 🏈"}')).json()).toEqual({ body: { name: 'Zoë 🏈' } });
      expect(await (await post(svc.url, '[1,2]')).json()).toEqual({ body: [1, 2] });
      expect(await (await post(svc.url, '')).json()).toEqual({ body: {} });
      const utf8 = await post(svc.url, '{"a":1}', 'application/json; charset=UTF-8');
      expect(await utf8.json()).toEqual({ body: { a: 1 } });
    });

    it.each([
      ['malformed JSON', '{"name":'],
      ['a bare string', '"jersey"'],
      ['a bare number', '42'],
    ])('refuses %s with 400 and the same message', async (_what, text) => {
      const res = await post(svc.url, text);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ statusCode: 400, message: 'Malformed JSON in request body' });
    });

    it('refuses a __proto__ key, a body nested too deeply and broken text', async () => {
      const poisoned = await post(svc.url, '{"__proto__":{"isAdmin":true}}');
      expect([poisoned.status, (await json(poisoned)).message]).toEqual([400, 'Malformed JSON in request body']);
      const deep = await post(svc.url, '['.repeat(5000) + ']'.repeat(5000));
      expect([deep.status, (await json(deep)).message]).toEqual([400, JSON_BODY_MESSAGES.tooDeep]);
      const broken = await post(svc.url, '{"name":"a\\u0000b"}');
      expect([broken.status, (await json(broken)).message]).toEqual([400, JSON_BODY_MESSAGES.invalidText]);
    });

    it('refuses a body over the limit with 413 and a charset other than UTF-8 with 415', async () => {
      const big = await post(svc.url, JSON.stringify({ text: 'x'.repeat(JSON_BODY_LIMIT) }));
      expect(big.status).toBe(413);
      expect(await big.json()).toEqual({ statusCode: 413, message: expect.stringMatching(/too large/i) });
      const latin1 = await post(svc.url, '{"a":1}', 'application/json; charset=latin1');
      expect(latin1.status).toBe(415);
      expect(await latin1.json()).toEqual({ statusCode: 415, message: 'Unsupported request body encoding' });
    });

    it('leaves any other content type unread for the route (an upload streams its own)', async () => {
      expect(await (await post(svc.url, 'name=jersey', 'application/x-www-form-urlencoded')).json()).toEqual({
        body: 'unread',
      });
      expect(await (await post(svc.url, 'hello', 'text/plain')).json()).toEqual({ body: 'unread' });
    });
  });

  it('routes as Express did: a trailing slash and the letters’ case make no other route', async () => {
    expect(await (await fetch(`${svc.url}/API/Things/abc/`)).json()).toMatchObject({ id: 'abc' });
  });

  it('answers an error as JSON even after the route chose another content type', async () => {
    const res = await fetch(`${svc.url}/api/things/export.csv`);
    expect([res.status, res.headers.get('content-type')]).toEqual([400, 'application/json; charset=utf-8']);
    expect(await res.json()).toEqual({ statusCode: 400, message: 'Bad date' });
  });

  it('answers an unknown path with a JSON 404', async () => {
    const res = await fetch(`${svc.url}/api/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ statusCode: 404, message: expect.any(String) });
  });

  it('believes X-Forwarded-For only from a trusted proxy (TRUSTED_PROXIES)', async () => {
    const res = await fetch(`${svc.url}/api/things/1`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect((await json(res)).ip).toBe('203.0.113.7'); // the test connects over loopback, trusted here
  });

  it('keeps a well-formed request id, makes one otherwise, and writes one access line per request', async () => {
    const kept = await fetch(`${svc.url}/api/things/kept`, { headers: { [REQUEST_ID_HEADER]: 'req-abc.123' } });
    expect(kept.headers.get(REQUEST_ID_HEADER)).toBe('req-abc.123');
    const made = await fetch(`${svc.url}/api/things/made`, { headers: { [REQUEST_ID_HEADER]: 'bad id!' } });
    expect(made.headers.get(REQUEST_ID_HEADER)).toMatch(/^[0-9a-f-]{36}$/);
    const lines = svc.logs.filter((line) => line.msg === 'request' && line.path === '/api/things/kept');
    expect(lines).toEqual([expect.objectContaining({ method: 'GET', status: 200, ms: expect.any(Number) })]);
  });

  it('counts requests by route template, unknown paths as "unmatched", and not the exposition itself', async () => {
    await fetch(`${svc.url}/api/things/one`);
    await fetch(`${svc.url}/api/unknown/path`);
    await fetch(`${svc.url}/metrics`);
    const text = await (await fetch(`${svc.url}/metrics`)).text();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/things\/:id",status="200"[^}]*\} \d+/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"[^}]*\} \d+/);
    expect(text).not.toMatch(/route="\/metrics"/);
  });
});
