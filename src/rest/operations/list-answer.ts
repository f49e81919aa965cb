import type { Answer } from '../../http/operation';
import { pageLinks } from '../../http/page-links';
import type { ListBody } from '../catalog.reader';

/** A list page's answer: its body and its `Link` header, which keeps the list's own parameters (`query`) and no others. */
export function listAnswer(publicUrl: string, url: string, page: ListBody, query: object): Answer {
  return { json: page.json, link: pageLinks(publicUrl, url, page.meta, Object.keys(query)) };
}
