"""fatcheck's JSON documents checked against docs/fatcheck.schema.json by jsonschema
(python3-jsonschema, which scripts/setup.sh installs), for every test that writes one."""
import json
import os

import jsonschema

SCHEMA_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs",
                           "fatcheck.schema.json")
SCHEMA = json.load(open(SCHEMA_PATH))
jsonschema.Draft202012Validator.check_schema(SCHEMA)  # the schema is itself a valid 2020-12 schema
_validator = jsonschema.Draft202012Validator(SCHEMA)


# The document kinds of the schema's oneOf, each alone: their errors name the field at fault
# where the oneOf's would say only that neither kind matches.
_kinds = {kind: jsonschema.Draft202012Validator({"$ref": "#/$defs/" + kind, "$defs": SCHEMA["$defs"]})
          for kind in ("report", "explain")}


def _where(e):
    return "$" + "".join("[%d]" % p if isinstance(p, int) else ".%s" % p for p in e.absolute_path)


def errors(doc):
    """Every way DOC breaks the schema, as '$.path: reason' strings; [] when it holds."""
    if _validator.is_valid(doc):
        return []
    kind = _kinds["explain" if isinstance(doc, dict) and "arch_list" in doc else "report"]
    found = sorted(kind.iter_errors(doc), key=lambda e: [str(p) for p in e.absolute_path])
    out = []
    for e in found or _validator.iter_errors(doc):
        if e.context:  # a oneOf inside: the reasons of the choice that came closest
            e = jsonschema.exceptions.best_match(e.context)
        out.append("%s: %s" % (_where(e), e.message))
    return out
