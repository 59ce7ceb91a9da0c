// Walks HTML markup in document order with htmlparser2's tokenizer: each opening tag (with its attributes when they are
// asked for), closing tag and run of text, entities decoded. No element tree or stack is kept, so the walk is linear in
// the markup's length however deeply its elements nest: htmlparser2's Parser keeps a stack it unshifts and shifts, and
// read 200,000 nested divs in ~20 s, past every time limit.
import { QuoteType, Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

export interface HtmlVisitor {
  /** Element names in lower case; attribute names too, the first of a name kept (as in HTML), values decoded. */
  open(name: string, attributes: Readonly<Record<string, string>>): void;
  close(name: string): void;
  /** A run of text; one run of the markup may come in several pieces (an entity is a piece of its own). */
  text(run: string): void;
}

const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Walks `html`, reading the attributes of the elements `withAttributes` names (all when it answers true for all): a
 * walk that needs a few elements' attributes does not build an object for every tag. A self-closing slash opens the
 * element, as HTML reads it outside SVG and MathML. Comments, declarations and CDATA are passed over; the content of
 * script, style, title and textarea is text, as the HTML tokenizer reads it.
 */
export function walkHtml(html: string, visitor: HtmlVisitor, withAttributes: (name: string) => boolean): void {
  let tag = '';
  let attributes: Record<string, string> | null = null;
  let attributeName = '';
  let attributeValue = '';
  const openTagEnded = () => {
    visitor.open(tag, attributes ?? NO_ATTRIBUTES);
    attributes = null;
  };
  const callbacks: TokenizerCallbacks = {
    ontext: (start, end) => visitor.text(html.slice(start, end)),
    ontextentity: (codePoint) => visitor.text(String.fromCodePoint(codePoint)),
    onopentagname(start, end) {
      tag = html.slice(start, end).toLowerCase();
      attributes = withAttributes(tag) ? {} : null;
    },
    onattribname(start, end) {
      if (attributes) attributeName = html.slice(start, end).toLowerCase();
      attributeValue = '';
    },
    onattribdata(start, end) {
      if (attributes) attributeValue += html.slice(start, end);
    },
    onattribentity(codePoint) {
      if (attributes) attributeValue += String.fromCodePoint(codePoint);
    },
    onattribend(quote) {
      if (attributes && !Object.hasOwn(attributes, attributeName)) attributes[attributeName] = quote === QuoteType.NoValue ? '' : attributeValue;
    },
    onopentagend: openTagEnded,
    onselfclosingtag: openTagEnded,
    onclosetag: (start, end) => visitor.close(html.slice(start, end).toLowerCase()),
    oncdata: () => undefined,
    oncomment: () => undefined,
    ondeclaration: () => undefined,
    onprocessinginstruction: () => undefined,
    onend: () => undefined,
  };
  const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
}
