/** ETSI TS 119 602 Lists of Trusted Entities (JSON, JAdES-signed): the reader and the EU service types. */
export { LOTE_ALGORITHMS } from './jades-header.js';
export { readLote } from './read-lote.js';
export { LOTE_SERVICE_TYPES, type LoteServiceType, MDL_SERVICE_TYPES } from './service-type-uris.js';
