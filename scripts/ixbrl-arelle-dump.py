"""Dump the facts Arelle reads from one inline XBRL filing, as JSON lines on stdout.

Run by scripts/ixbrl-arelle-check.ts. Offline on purpose: the filings point at remote
taxonomies (the filer's .xsd beside the filing, the us-gaap/dei schemas on the web), so the
comparison is on what the instance itself says - concept QName, the context's period and
dimensions, the unit's measures, the value after Arelle's transformation, scale and sign.
"""

import json
import sys

from arelle import Cntlr


def period(ctx):
    out = {}
    p = ctx.period
    if p is None:
        return None
    for child in p.iterchildren():
        name = getattr(child, "localName", None)
        if name in ("instant", "startDate", "endDate"):
            out[name] = (child.textValue or "").strip()
        elif name == "forever":
            out["forever"] = True
    return out


def dims(ctx):
    out = []
    # Read from the segment itself: without the taxonomy Arelle cannot tell a dimension.
    for el in ctx.iterdescendants():
        name = getattr(el, "localName", None)
        if name == "explicitMember":
            out.append({"dimension": el.get("dimension").strip(), "member": (el.textValue or "").strip()})
        elif name == "typedMember":
            out.append({"dimension": el.get("dimension").strip(), "typedValue": " ".join((el.stringValue or "").split())})
    return sorted(out, key=lambda d: d["dimension"])


def unit(u):
    if u is None:
        return None
    num, den = u.measures
    s = "*".join(str(q) for q in num)
    return s + ("/" + "*".join(str(q) for q in den) if den else "")


def main(path):
    c = Cntlr.Cntlr(logFileName="logToBuffer")
    c.webCache.workOffline = True
    c.internetConnectivity = "offline"
    mx = c.modelManager.load(path)
    for f in mx.facts:
        ctx = f.context
        numeric = f.localName in ("nonFraction", "fraction")
        rec = {
            "id": f.id,
            "concept": str(f.qname),
            "conceptNs": f.qname.namespaceURI,
            "numeric": numeric,
            "contextId": f.contextID,
            "period": period(ctx) if ctx is not None else None,
            "dimensions": dims(ctx) if ctx is not None else None,
            "unit": unit(f.unit) if numeric else None,
            "decimals": f.decimals if numeric else None,
            "nil": f.isNil,
        }
        try:
            rec["value"] = None if f.isNil else f.value
        except Exception as e:  # a transformation Arelle refuses
            rec["value"] = None
            rec["error"] = str(e)
        print(json.dumps(rec))
    c.close()


if __name__ == "__main__":
    main(sys.argv[1])
