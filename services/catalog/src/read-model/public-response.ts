/** How public reads are sent: the shared read model's (the gateway's copy answers with the same bytes). */
export {
  listResponse,
  productBytesOf,
  productResponse,
  sendPublic,
  type ProductBytes,
  type PublicResponse,
} from '@shop/catalog-read-model';
