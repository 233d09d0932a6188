// The part of busboy 1.6's API that api/multipart.ts uses (the package ships no types).
declare module 'busboy' {
  import type { IncomingHttpHeaders } from 'node:http';
  import type { Readable, Writable } from 'node:stream';

  interface Limits {
    fieldNameSize?: number;
    fieldSize?: number;
    fields?: number;
    fileSize?: number;
    files?: number;
    parts?: number;
  }
  interface Options {
    headers: IncomingHttpHeaders;
    limits?: Limits;
    defParamCharset?: string;
    preservePath?: boolean;
  }
  interface FieldInfo {
    nameTruncated: boolean;
    valueTruncated: boolean;
  }
  interface FileInfo {
    filename: string | undefined;
    mimeType: string;
  }
  interface Busboy extends Writable {
    on(event: 'field', listener: (name: string, value: string, info: FieldInfo) => void): this;
    on(
      event: 'file',
      listener: (name: string, stream: Readable & { truncated?: boolean }, info: FileInfo) => void,
    ): this;
    on(event: 'partsLimit' | 'filesLimit' | 'fieldsLimit' | 'close' | 'finish', listener: () => void): this;
    on(event: 'error', listener: (err: Error) => void): this;
  }
  export default function busboy(options: Options): Busboy;
}
