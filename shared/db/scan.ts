import * as ddb from '@aws-sdk/client-dynamodb';
import type * as doc from '@aws-sdk/lib-dynamodb';
import { DocumentCommand, pageInput, pageOf } from './document.ts';

/**
 * A Scan in plain values, for operator code only (the rebuild, the seed script's emptiness check):
 * no request path scans the table (docs/data-model.md), no route row is granted Scan, and this
 * module is kept apart from `document.ts` so that no request-path module reaches it by import.
 */
export class ScanCommand extends DocumentCommand<doc.ScanCommandInput, doc.ScanCommandOutput> {
  toWire() {
    return new ddb.ScanCommand(pageInput(this.input) as ddb.ScanInput);
  }
  fromWire(o: ddb.ScanCommandOutput) {
    return pageOf(o) as doc.ScanCommandOutput;
  }
}
