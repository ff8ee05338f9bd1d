export { createRestClient, RESOURCE_LISTING_OPERATION } from './createRestClient.ts';
export type {
  RequestRecord,
  RestClient,
  RestClientOptions,
  RestHandles,
  RestResources,
} from './RestClient.ts';
export type {
  RestTransport,
  TransportCancel,
  TransportExchange,
  TransportRequest,
  TransportResponse,
} from './RestTransport.ts';
export { SocketRestTransport } from './SocketRestTransport.ts';
export type { SocketRestTransportOptions } from './SocketRestTransport.ts';
export { UndiciTransport } from './UndiciTransport.ts';
export type { RestAuth, UndiciTransportOptions } from './UndiciTransport.ts';
export type { ServerSegment, ServerSegmentOption } from './ServerSegment.ts';
export { encodeQueryString } from './encodeQueryString.ts';
export { encodePathSegment, encodeRequest, formatQueryValue } from './encodeRequest.ts';
export { decodeHttpReply } from './decodeHttpReply.ts';
export { segmentFromResourceListing, RESOURCE_LISTING_PATH } from './segmentFromResourceListing.ts';
export { scrubCredentials } from './scrubCredentials.ts';
export { checkTlsOptions, describeTlsFailure, verificationOffMessage } from './TlsOptions.ts';
export type { PemData, TlsOptions } from './TlsOptions.ts';
