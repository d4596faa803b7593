// mjml 5 ships no type declarations: the one call this service makes.
declare module 'mjml' {
  interface MjmlError {
    line: number;
    message: string;
    tagName: string;
    formattedMessage: string;
  }
  interface MjmlOptions {
    validationLevel?: 'strict' | 'soft' | 'skip';
    /** Where mj-include paths are resolved from. */
    filePath?: string;
    /** mj-include is ignored unless this is false (MJML 5). */
    ignoreIncludes?: boolean;
    /** The folders an mj-include may read from. */
    includePath?: string | string[];
    keepComments?: boolean;
  }
  function mjml2html(source: string, options?: MjmlOptions): Promise<{ html: string; errors: MjmlError[] }>;
  export = mjml2html;
}
