// swagger-ui-dist ships no type declarations; the docs page uses only this call.
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const SwaggerUIBundle: (options: Record<string, unknown>) => unknown;
  export default SwaggerUIBundle;
}
