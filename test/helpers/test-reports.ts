/** Checks of `docket test`'s machine reports against the schemas CI tools read them with. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { validateXML } from 'xmllint-wasm';

/** The Apache Ant JUnit schema (Windy Road's JUnit.xsd) as the junit-xml package ships it for its own tests. */
export async function antJunitSchemaAsShipped(): Promise<string> {
  const source = await readFile(join(dirname(createRequire(import.meta.url).resolve('junit-xml/package.json')), 'src/index.test.ts'), 'utf8');
  return /const antJunitSchema = '((?:[^'\\]|\\.)*)';/.exec(source)![1]!.replace(/\\'/g, "'");
}

/** Ant's schema with the `skipped` element and attribute that the schema's later revision added (for reports with skipped cases). */
export async function antJunitSchema(): Promise<string> {
  return (await antJunitSchemaAsShipped())
    // Ant's form has no `skipped`; it is added as Jenkins' and Surefire's schemas have it, with an optional message.
    .replace('<xs:choice minOccurs="0"><xs:element name="error">', '<xs:choice minOccurs="0"><xs:element name="skipped"><xs:complexType><xs:attribute name="message" type="xs:string"/></xs:complexType></xs:element><xs:element name="error">')
    .replace('<xs:attribute name="time" type="xs:decimal" use="required"><xs:annotation><xs:documentation xml:lang="en">Time taken (in seconds) to execute the tests in the suite', '<xs:attribute name="skipped" type="xs:int" use="optional"/><xs:attribute name="time" type="xs:decimal" use="required"><xs:annotation><xs:documentation xml:lang="en">Time taken (in seconds) to execute the tests in the suite');
}

/** xmllint's complaints about a JUnit report (none when it is valid): against Ant's schema as shipped, unless `withSkipped`. */
export async function junitErrors(xml: string, { withSkipped = false }: { withSkipped?: boolean } = {}): Promise<readonly unknown[]> {
  const schema = withSkipped ? await antJunitSchema() : await antJunitSchemaAsShipped();
  const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: schema }] });
  return result.valid ? [] : result.errors.length > 0 ? result.errors : ['invalid'];
}

/** ajv's complaints about a `docket test -o json` document against schemas/test-report.schema.json (none when valid). */
export async function testReportErrors(doc: unknown): Promise<unknown[]> {
  const schema = JSON.parse(await readFile(fileURLToPath(new URL('../../schemas/test-report.schema.json', import.meta.url)), 'utf8')) as object;
  const validate = new Ajv.default({ strict: false }).compile(schema);
  return validate(doc) ? [] : (validate.errors ?? []);
}
