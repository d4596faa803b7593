import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiErrors, rawJsonBody } from '@shop/nest-common';
import type { FastifyRequest } from 'fastify';
import { PayPalWebhooksService, type WebhookOutcome } from './paypal-webhooks.service';

class WebhookAnswerBody {
  @ApiProperty({
    enum: ['paid', 'already-paid', 'refused', 'released', 'recorded', 'known', 'own-refund', 'ignored', 'duplicate'],
    description: 'What the shop did with the event (`duplicate`: an event handled before, nothing done)',
  })
  status!: WebhookOutcome;
}

const TRANSMISSION_HEADERS = [
  'PAYPAL-TRANSMISSION-ID',
  'PAYPAL-TRANSMISSION-TIME',
  'PAYPAL-TRANSMISSION-SIG',
  'PAYPAL-CERT-URL',
  'PAYPAL-AUTH-ALGO',
];

/** PayPal's webhook listener: public (PayPal calls it), each delivery verified with PayPal before anything is done. */
@ApiTags('checkout')
@Controller('api/paypal/webhooks')
export class PayPalWebhooksController {
  constructor(private readonly webhooks: PayPalWebhooksService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: "PayPal's webhook events: captures completed or denied, refunds and reversals made outside the shop",
    description:
      'Called by PayPal, never by the SPA. Each delivery is verified with PayPal (verify-webhook-signature, over the ' +
      'body exactly as it arrived, for PAYPAL_WEBHOOK_ID) and acted on once per event id. COMPLETED pays the ' +
      'checkout named by the capture’s custom_id as `PUT /api/checkout/:id/pay` would (its order placed once); ' +
      'DENIED gives an unpaid checkout’s stock back; REFUNDED / REVERSED made outside the shop are recorded on the ' +
      'order and flagged on the admin dashboard.',
  })
  @ApiBody({ schema: { type: 'object', description: 'A PayPal webhook event, as PayPal sends it' } })
  @ApiHeader({ name: 'PAYPAL-TRANSMISSION-SIG', required: true, description: TRANSMISSION_HEADERS.join(', ') })
  @ApiOkResponse({ type: WebhookAnswerBody })
  @ApiErrors(
    { 400: 'The body is not a PayPal webhook event, or The webhook signature could not be verified (nothing changed)' },
    { 404: 'PayPal webhooks are not configured (no PAYPAL_WEBHOOK_ID)' },
    { 503: 'PayPal, the catalog or orders did not answer, or the order is not placed yet: PayPal delivers it again' },
  )
  receive(@Req() req: FastifyRequest, @Body() body: unknown): Promise<{ status: WebhookOutcome }> {
    return this.webhooks.receive(req.headers, rawJsonBody(req), body);
  }
}
