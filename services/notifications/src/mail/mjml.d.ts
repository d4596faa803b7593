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
    keepComments?: boolean;
  }
  function mjml2html(source: string, options?: MjmlOptions): Promise<{ html: string; errors: MjmlError[] }>;
  export = mjml2html;
}
