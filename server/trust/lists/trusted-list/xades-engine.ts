import { webcrypto } from 'node:crypto';
import { createRequire } from 'node:module';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { Application, setNodeDependencies } from 'xadesjs';

/**
 * The process-wide set-up xadesjs (and xmldsigjs, xml-core beneath it) needs under Node: Node's own
 * WebCrypto as the crypto engine (no third-party crypto), and the DOM pieces xml-core looks up by
 * name. The DOMParser handed to it is the same strict configuration the reader parses with, so any text
 * the library re-parses internally cannot bring entities or error recovery back in by that side door.
 * Importing this module is what configures it; it is idempotent.
 */

// Loaded untyped: xpath's type declarations pull the whole browser DOM lib into the program.
const xpath: unknown = createRequire(import.meta.url)('xpath');

class StrictDOMParser extends DOMParser {
  constructor() {
    super({
      onError: (level, message) => {
        throw new Error(`${level}: ${message}`);
      },
    });
  }
}

Application.setEngine('NodeJS', webcrypto as unknown as Parameters<typeof Application.setEngine>[1]);
setNodeDependencies({ DOMParser: StrictDOMParser, XMLSerializer, xpath });

export { Application };
