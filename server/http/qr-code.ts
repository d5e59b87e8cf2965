import { createRequire } from 'node:module';
import QRCode from 'qrcode';
import { chooseMask, formatBitsM, sizeMasks, writeFormatBits } from './qr-mask-choice.js';

// The package's SVG renderer of a built symbol: its public toString() always builds the symbol itself.
// An internal path of qrcode (pinned at 1.5.4): an upgrade that moves it fails test/unit/qr-code.test.ts.
const svgTag = createRequire(import.meta.url)('qrcode/lib/renderer/svg-tag.js') as {
  render(symbol: QRCode.QRCode, options: QRCode.QRCodeRenderersOptions): string;
};

/**
 * A link as an SVG QR code. The link is given as one byte-mode segment: for a URI that is what the
 * encoder would choose anyway, and it skips its search for the optimal mix of modes (a shortest-path
 * search over every character that was a fifth of a verification session's CPU time). Error
 * correction M, as wallets' scanners expect; margin 2.
 *
 * The mask is chosen by the standard's penalty rules, as the package would choose it, but not by the
 * package: its search cost two thirds of the call (~1.2 ms for a 200-character link). The symbol is
 * built once with mask 0, unmasked, scored for all eight masks by qr-mask-choice.ts, and re-masked in
 * place with the winner; the output is byte for byte the package's own (test/unit/qr-code.test.ts).
 */
export async function qrCodeSvg(link: string): Promise<string> {
  const symbol = QRCode.create([{ data: Buffer.from(link), mode: 'byte' }], {
    errorCorrectionLevel: 'M',
    maskPattern: 0,
  });
  const { size, data, reservedBit } = symbol.modules;
  const masks = sizeMasks(size, reservedBit);
  const mask0 = masks.flips[0] as Uint8Array;
  const unmasked = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) unmasked[i] = (data[i] as number) ^ (mask0[i] as number);
  const mask = chooseMask(unmasked, size, masks);
  if (mask !== 0) {
    const flip = masks.flips[mask] as Uint8Array;
    for (let i = 0; i < data.length; i++) data[i] = (unmasked[i] as number) ^ (flip[i] as number);
    writeFormatBits(data, size, formatBitsM[mask] as number);
    symbol.maskPattern = mask as QRCode.QRCodeMaskPattern;
  }
  return svgTag.render(symbol, { margin: 2 });
}
