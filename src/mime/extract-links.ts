// Finds the http(s) links of a message: hrefs in the HTML body and URLs written in the text body.
import { Parser } from 'htmlparser2';
import { LinkifyIt } from 'linkify-it';

const linkify = new LinkifyIt();
const isWebLink = (url: string): boolean => /^https?:\/\//i.test(url);

function linksInHtml(html: string): string[] {
  const links: string[] = [];
  const parser = new Parser({
    onopentag(name, attributes) {
      if ((name === 'a' || name === 'area') && attributes.href) links.push(attributes.href.trim());
    },
  }, { decodeEntities: true, lowerCaseTags: true });
  parser.write(html);
  parser.end();
  return links;
}

function linksInText(text: string): string[] {
  return (linkify.match(text) ?? []).map((match) => match.url);
}

/** Unique http(s) links in order of first appearance, HTML first. */
export function extractLinks(html: string, text: string): string[] {
  return [...new Set([...linksInHtml(html), ...linksInText(text)].filter(isWebLink))];
}
