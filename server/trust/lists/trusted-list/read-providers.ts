import type { Element } from '@xmldom/xmldom';
import { type ListedEntity, type ListedService, TrustListError } from '../read-list.js';
import { base64Of, elementAt, elementsAt, preferredName, TSL_NS, textOf } from './xml-lookup.js';

/**
 * Reads the trust service providers of a list (TS 119 612 clause 5.4) and each one's services in their
 * current state (`ServiceInformation`, clause 5.5; the `ServiceHistory` is not read), from the signed
 * root by direct children only.
 *
 * A service's certificates are the `X509Certificate` values of its `ServiceDigitalIdentity` (base64
 * DER, line breaks removed). A service identified only by subject name or key identifier has none,
 * and is still listed, so a caller can see it and decide.
 */
export function readProviders(root: Element): ListedEntity[] {
  return elementsAt(root, TSL_NS, 'TrustServiceProviderList', 'TrustServiceProvider').map((provider) => {
    const name = preferredName(elementAt(provider, TSL_NS, 'TSPInformation', 'TSPName'));
    if (!name) throw new TrustListError('malformed', 'a trust service provider has no TSPName');
    const services = elementsAt(provider, TSL_NS, 'TSPServices', 'TSPService', 'ServiceInformation');
    return { name, services: services.map(readService) };
  });
}

function readService(information: Element): ListedService {
  const serviceType = textOf(elementAt(information, TSL_NS, 'ServiceTypeIdentifier'));
  if (!serviceType) throw new TrustListError('malformed', 'a service has no ServiceTypeIdentifier');
  const identity = ['ServiceDigitalIdentity', 'DigitalId', 'X509Certificate'];
  return {
    serviceType,
    status: textOf(elementAt(information, TSL_NS, 'ServiceStatus')),
    certificates: elementsAt(information, TSL_NS, ...identity)
      .map(base64Of)
      .filter((b64): b64 is string => b64 !== undefined),
  };
}
