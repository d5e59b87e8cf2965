/** RFC 7644 section 3.1: every SCIM message is application/scim+json (requests may also be application/json). */
export const SCIM_MEDIA_TYPE = 'application/scim+json';
