"""A small JSON Schema checker for the keywords docs/fatcheck.schema.json uses: $ref to
#/$defs, oneOf, type, const, enum, required, properties, additionalProperties: false,
items, pattern, minimum. (jsonschema is not a Debian package the tests can rely on.)"""
import re

TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _type_ok(value, name):
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, TYPES[name])


def errors(value, schema, root, where="$"):
    """Every way VALUE breaks SCHEMA, as 'path: reason' strings."""
    if "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        return errors(value, root["$defs"][name], root, where)
    if "oneOf" in schema:
        ok = [s for s in schema["oneOf"] if not errors(value, s, root, where)]
        return [] if len(ok) == 1 else ["%s: matches %d of oneOf" % (where, len(ok))]
    out = []
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_type_ok(value, n) for n in names):
            return ["%s: %r is not %s" % (where, value, "/".join(names))]
    if "const" in schema and value != schema["const"]:
        out.append("%s: %r is not %r" % (where, value, schema["const"]))
    if "enum" in schema and value not in schema["enum"]:
        out.append("%s: %r not in %r" % (where, value, schema["enum"]))
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        out.append("%s: %r does not match %s" % (where, value, schema["pattern"]))
    if "minimum" in schema and isinstance(value, int) and value < schema["minimum"]:
        out.append("%s: %r below %r" % (where, value, schema["minimum"]))
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                out.append("%s: missing %s" % (where, key))
        props = schema.get("properties", {})
        for key, v in value.items():
            if key in props:
                out += errors(v, props[key], root, "%s.%s" % (where, key))
            elif schema.get("additionalProperties") is False:
                out.append("%s: unexpected %s" % (where, key))
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            out += errors(v, schema["items"], root, "%s[%d]" % (where, i))
    return out
