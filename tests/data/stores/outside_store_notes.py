"""The memories of the outside store (outside_store.py builds the store from them): Margaret "Mags"
Okafor-Reid, a freelance BSL/English interpreter in Leeds, about 18 months of notes, with the duplicate groups and
look-alike pairs they hold. Written blind to memgui's code, from the Netclaw memory spec only. Stdlib only; ids and
timestamps are deterministic."""

from outside_ids import MERGE_SEP, anchor_id, make_ids, ms  # noqa: F401 (the builder reads them here)

SEED_NS = "netclaw-outside-store/okafor-reid"
doc_id, rec_id, cp_id = make_ids(SEED_NS)

# ---------------------------------------------------------------------------
# Documents.
#
# path "obs": written through the observer gate (anchor + aliases + facets,
#             durable_fact -> recall_mode auto).
# path "ext": written through the rules-first extractor: anchor = first word
#             of the content lower-cased, title = first 72 chars of content,
#             no aliases/facets.  Before the Dec-2024 upgrade the legacy
#             startup repair downgraded such rows to `searchable` and added
#             the facet `needs_metadata_enrichment`.
# ---------------------------------------------------------------------------

DOCS = []


def D(key, when, anchor, title, body, path="obs", aliases=None, facets=None,
      slots=None, atype="concept", updated=None, semantics=None, recall=None,
      klass="durable_fact", sensitivity="normal", conf=None):
    DOCS.append(dict(key=key, when=when, anchor=anchor, title=title, body=body,
                     path=path, aliases=aliases, facets=facets, slots=slots,
                     atype=atype, updated=updated, semantics=semantics,
                     recall=recall, klass=klass, sensitivity=sensitivity,
                     conf=conf))


def X(key, when, body, **kw):
    """Extractor-path document: anchor = first word, title = first 72 chars."""
    first = body.split()[0].lower()
    D(key, when, first, body[:72], body, path="ext", **kw)


# ---- duplicate groups ------------------------------------------------------

# G01 the van itself
D("g01a", "2024-03-10 19:42", "Marigold the van", "Camper van: Marigold",
  "Van: 1987 VW T3 Westfalia, named Marigold. Reg: E731 RUB. Colour: Marino yellow.",
  aliases=["Marigold", "T3", "the van"], facets=["vehicle", "identity"],
  slots=["registration", "model", "colour"], atype="vehicle")
D("g01b", "2024-09-02 08:15", "vw-t3", "VW T3 details",
  "Mags's T3 camper (Marigold) is registered E731 RUB — a 1987 Westfalia Joker.",
  aliases=["VW T3", "Westfalia"], facets=["vehicle"], slots=["registration"], atype="vehicle")
X("g01c", "2025-04-18 21:03",
  "The camper is a yellow '87 Westfalia Joker, plate E731 RUB, called Marigold.")

# G02 the 2024 MOT (one event)
D("g02a", "2024-07-11 16:40", "Marigold MOT 2024", "T3 MOT 2024 result",
  "T3 MOT done at Kirkstall Autos on 2024-07-11 — passed. Advisories: front wishbone bushes perished; slight oil mist on gearbox.",
  aliases=["MOT", "Kirkstall Autos"], facets=["vehicle", "maintenance", "mot"], atype="event")
D("g02b", "2024-08-03 10:05", "van mot", "Van MOT passed (July 2024)",
  "MOT 11 Jul 2024 at Kirkstall Autos: pass. Advisory: front wishbone bushes worn/perished — get them done before next year.",
  aliases=["MOT"], facets=["vehicle", "mot"], atype="event")

# G03 NRCPD registration
D("g03a", "2024-03-14 12:30", "NRCPD registration", "NRCPD registration",
  "Registered with NRCPD as a BSL/English interpreter, registration no. 8814. Renewal every April, annual fee £110.",
  aliases=["NRCPD", "registration number"], facets=["work", "credentials"],
  slots=["registration_number", "renewal", "fee"])
D("g03b", "2024-06-21 09:02", "interpreter registration number", "Registration number",
  "Mags's NRCPD number is 8814.",
  aliases=["NRCPD number"], facets=["work", "credentials"], slots=["registration_number"])
D("g03c", "2025-03-28 18:47", "nrcpd renewal", "NRCPD renewal due",
  "NRCPD renewal is due each April; the fee is £110 a year (reg 8814).",
  aliases=["renewal"], facets=["work", "credentials", "renewal"])

# G04 standard rate
D("g04a", "2024-03-14 12:41", "interpreting rates", "Standard interpreting rate",
  "Standard interpreting rate: £38/hour, 2-hour minimum booking. Evenings after 18:00 and weekends +50%.",
  aliases=["rate", "fees"], facets=["work", "money"], slots=["hourly_rate", "minimum", "uplift"])
X("g04b", "2024-05-30 14:22",
  "rate: £38/h; min call 2h; evenings/weekends time-and-a-half")
D("g04c", "2025-01-09 11:10", "booking fees", "What Mags charges",
  "Mags charges private clients £38 an hour with a two-hour minimum; out-of-hours (after 6pm, weekends) is at 1.5x.",
  aliases=["charges"], facets=["work", "money"])

# G05 Pebble's vet
D("g05a", "2024-04-02 17:55", "Pebble vet", "Pebble's vet",
  "Pebble (cat) vet: Headingley Vets, Dr Asante, tel 0113 496 0412.",
  aliases=["Pebble", "vet"], facets=["pets", "contacts"], slots=["vet", "phone"], atype="pet")
D("g05b", "2024-10-19 09:31", "headingley vets", "Cat's vet contact",
  "The cat's vet is Dr Asante at Headingley Vets — phone 0113 496 0412. Booster vaccinations every March.",
  aliases=["Headingley Vets", "Dr Asante"], facets=["pets", "contacts"], atype="place")
D("g05c", "2025-02-27 20:14", "pebble vaccinations", "Pebble booster",
  "Pebble's annual booster is each March at Headingley Vets (Dr Asante).",
  aliases=["booster", "vaccination"], facets=["pets", "health"], atype="pet")

# G06 allotment plot and rent
D("g06a", "2024-03-22 19:20", "allotment", "Allotment plot",
  "Allotment: plot 14B, Meanwood Valley Allotments. Rent £48/year, paid each October to the site secretary, Colin Marsh.",
  aliases=["plot 14B", "Meanwood Valley"], facets=["allotment", "money"],
  slots=["plot", "rent", "secretary"], atype="place")
X("g06b", "2024-07-06 13:48",
  "Plot number is 14B at Meanwood Valley allotments.")
D("g06c", "2025-09-30 18:02", "allotment rent", "Allotment rent reminder",
  "Allotment rent is £48 a year — pay Colin Marsh (site secretary) in October. Plot 14B.",
  aliases=["rent"], facets=["allotment", "money", "reminder"])

# G07 Open University identity / tutor
D("g07a", "2024-10-01 20:30", "Open University", "OU student details",
  "OU personal identifier (PI): C4471923. Module S209 Earth processes; tutor is Dr Helen Pryce (helen.pryce@open.ac.uk).",
  aliases=["OU", "Open University", "S209"], facets=["study", "identity"],
  slots=["student_id", "module", "tutor"], atype="organisation")
D("g07b", "2024-11-02 10:12", "S209 tutor", "S209 tutor",
  "Tutor for S209 is Helen Pryce; email helen.pryce@open.ac.uk.",
  aliases=["tutor", "Helen Pryce"], facets=["study", "contacts"], atype="person")
X("g07c", "2025-01-20 22:40",
  "Mags's Open University PI is C4471923 (needed for StudentHome login).")

# G08 Sunny's birthday
D("g08a", "2024-03-18 21:05", "Sunny", "Sunny's birthday",
  "Sunny's birthday: 3 September.",
  aliases=["Sunniva", "partner"], facets=["people", "dates"], slots=["birthday"], atype="person")
D("g08b", "2024-08-20 07:50", "sunniva birthday", "Partner birthday",
  "Sunniva (Sunny), Mags's partner, was born 1986-09-03. Likes Lebanese food — birthday dinner idea.",
  aliases=["Sunny", "birthday"], facets=["people", "dates", "gifts"], atype="person")

# G09 diet
D("g09a", "2024-03-11 18:00", "diet", "Dietary preference",
  "Mags is pescatarian: no meat, fish and seafood are fine.",
  aliases=["pescatarian"], facets=["preferences", "food"], slots=["diet"])
X("g09b", "2024-04-26 19:33",
  "Never suggest meat recipes — she eats fish though.")
D("g09c", "2024-12-05 12:12", "food preferences", "Food preferences",
  "Diet: pescatarian (no meat; fish OK). Dislikes coriander.",
  aliases=["food", "diet"], facets=["preferences", "food"])
D("g09d", "2025-06-14 17:26", "meal planning", "Meal planning constraints",
  "When planning meals for Mags: no meat, fish is fine (pescatarian).",
  aliases=["meals", "recipes"], facets=["preferences", "food", "planning"])

# G10 answer style
D("g10a", "2024-03-10 20:01", "reply style", "How to reply",
  "Prefers replies in British English, metric units and 24-hour times.",
  aliases=["style", "tone"], facets=["preferences", "assistant"], atype="preference")
X("g10b", "2024-09-15 08:44",
  "Use UK spelling and the 24h clock in answers; metric please.")

# G11 invoicing
D("g11a", "2024-04-08 10:20", "FreeAgent", "Invoicing",
  "Invoices are raised in FreeAgent. Invoice numbering: MO-YYYY-NNN (e.g. MO-2024-017).",
  aliases=["invoices", "FreeAgent"], facets=["work", "money", "admin"], slots=["tool", "numbering"])
D("g11b", "2025-02-11 09:58", "invoice numbers", "Invoice number format",
  "Invoice number format is MO-<year>-<3-digit sequence>, issued from FreeAgent.",
  aliases=["invoice format"], facets=["work", "admin"])

# G12 accountant
D("g12a", "2024-05-14 15:35", "accountant", "Accountant",
  "Accountant: Priya Shah at Shah & Lowe, priya@shahlowe.example. Self-assessment deadline 31 January.",
  aliases=["Priya Shah", "Shah & Lowe"], facets=["money", "tax", "contacts"],
  slots=["name", "email"], atype="person")
D("g12b", "2024-12-02 19:47", "tax return", "Who does the tax return",
  "Priya Shah (Shah & Lowe) does Mags's self-assessment return; email priya@shahlowe.example.",
  aliases=["self-assessment"], facets=["money", "tax"])

# G13 water pump order
D("g13a", "2024-08-12 21:16", "T3 water pump", "Water pump ordered",
  "Replacement water pump for the T3 (1.9 DG wasserboxer) — part no. 025 121 010 C, ordered from Just Kampers, £64.20.",
  aliases=["water pump", "Just Kampers"], facets=["vehicle", "parts", "money"], atype="event")
D("g13b", "2024-08-14 08:03", "just kampers order", "Just Kampers order",
  "Ordered water pump 025121010C from https://www.justkampers.example/ for £64.20 (for Marigold's 1.9 DG engine).",
  aliases=["order"], facets=["vehicle", "parts"], atype="event")

# G14 asthma inhaler
D("g14a", "2024-04-15 08:30", "Mags health", "Asthma inhaler",
  "Mags has mild asthma — Clenil Modulite 100mcg, 2 puffs twice daily. Salbutamol as needed.",
  aliases=["asthma", "inhaler"], facets=["health"], slots=["condition", "medication"], atype="person")
X("g14b", "2025-01-28 07:12",
  "Asthma inhaler is Clenil Modulite 100 micrograms, two puffs morning and night.")

# G15 Thursday college booking
D("g15a", "2024-09-12 13:05", "Leeds City College booking", "Thursday college booking",
  "Regular booking: Thursdays 10:00–12:00 at Leeds City College, Level 3 Engineering, deaf student Jamal. Booked via Signworks.",
  aliases=["Jamal", "Leeds City College", "Thursday booking"], facets=["work", "schedule"],
  slots=["day", "time", "client", "agency"], atype="event")
X("g15b", "2024-10-24 12:21",
  "Thursdays 10-12 interpreting Jamal's engineering class at Leeds City College (Signworks booking, term time).")

# G16 broadband
D("g16a", "2024-06-03 19:11", "broadband", "Home broadband",
  "Home broadband: Zen Internet, account ZN-554201, support line 0161 496 0380.",
  aliases=["Zen", "internet"], facets=["home", "utilities", "contacts"], slots=["provider", "account"])
D("g16b", "2025-03-19 20:37", "zen internet", "Zen account",
  "Zen Internet account number ZN-554201 (support 0161 496 0380) — home fibre.",
  aliases=["ISP"], facets=["home", "utilities"])

# G17 Zoom on the ThinkPad
D("g17a", "2024-11-06 09:40", "VRI setup", "Remote interpreting setup",
  "Remote (VRI) jobs: Zoom 6.0.2 on the ThinkPad T14 (Ubuntu 22.04). Pin the deaf client's video and ask host to spotlight Mags.",
  aliases=["VRI", "Zoom"], facets=["work", "tech"], slots=["app", "version", "machine"])
D("g17b", "2025-02-04 14:55", "zoom", "Zoom version",
  "Zoom on the ThinkPad T14 is version 6.0.2; for VRI, pin the client video + spotlight the interpreter.",
  aliases=["Zoom client"], facets=["tech"])

# G18 Mags's swimming
D("g18a", "2024-05-06 06:45", "swimming", "Swimming routine",
  "Mags swims Mon/Wed 07:00 at Kirkstall Leisure Centre (lane swim, ~1.5 km).",
  aliases=["swim", "Kirkstall Leisure Centre"], facets=["health", "routine"], slots=["days", "time", "place"])
X("g18b", "2025-04-07 06:58",
  "Monday and Wednesday mornings (7am) Mags is at Kirkstall Leisure Centre pool.")

# G19 Arran field trip / outbound ferry
D("g19a", "2025-01-15 21:30", "Arran field trip", "OU Arran field week",
  "OU S209 residential field trip: Isle of Arran, 2025-05-12 to 2025-05-16. Outbound ferry Ardrossan → Brodick on 12 May.",
  aliases=["Arran", "field trip", "residential"], facets=["study", "travel"],
  slots=["dates", "place"], atype="event")
D("g19b", "2025-02-02 10:44", "calmac booking", "Ferry to Arran booked",
  "Arran field week 12–16 May 2025 (OU). Ferry Ardrossan→Brodick 12 May 09:45, CalMac booking ref CM7731Q, foot passenger.",
  aliases=["CalMac", "ferry"], facets=["travel", "booking"], atype="event")
X("g19c", "2025-04-29 19:06",
  "Booked CalMac ref CM7731Q: Ardrossan to Brodick, 12 May 2025 for the Arran field trip.")

# G20 Mum
D("g20a", "2024-03-16 11:25", "Mum", "Mum",
  "Mum is Adaeze Okafor, lives in Bradford (BD9)."
  + MERGE_SEP.format("2024-12-24")
  + "Mum's landline 01632 960 118; she doesn't text.",
  aliases=["Adaeze", "mother"], facets=["people", "family", "contacts"],
  slots=["name", "town", "phone"], atype="person", updated="2024-12-24 16:02",
  semantics="append-document")
D("g20b", "2025-05-11 09:18", "adaeze okafor", "Mum's number",
  "Mum's number: 01632 960118 (landline, Bradford). Ring, don't text.",
  aliases=["Mum's phone"], facets=["contacts", "family"], atype="person")
X("g20c", "2025-07-20 15:44",
  "Adaeze (Mags's mum) lives in Bradford BD9; call her landline 01632 960 118.")

# G21 van insurance
D("g21a", "2025-01-30 18:20", "van insurance", "Marigold insurance",
  "Van insured with Adrian Flux, classic policy AFX-2291-884. Renews 2 February. Agreed value £14,500, 5,000 miles/year limit.",
  aliases=["Adrian Flux", "insurance"], facets=["vehicle", "money", "insurance"],
  slots=["insurer", "policy", "renewal", "agreed_value"])
D("g21b", "2025-02-03 09:05", "classic insurance", "Classic policy",
  "Marigold's insurance: Adrian Flux (policy AFX-2291-884), agreed value £14.5k, limited mileage 5000/yr, renewal early Feb.",
  aliases=["policy"], facets=["vehicle", "insurance"])

# G22 password manager
D("g22a", "2024-06-10 21:50", "password manager", "Password manager",
  "Uses Bitwarden for passwords; family organisation shared with Sunny.",
  aliases=["Bitwarden"], facets=["tech", "security"], slots=["tool"])
X("g22b", "2024-11-19 20:08",
  "Bitwarden family org is shared between Mags and Sunny — that's where logins live.")

# G23 garlic
D("g23a", "2024-10-27 15:10", "garlic planting", "Garlic planted",
  "Garlic planted at plot 14B in late Oct 2024, variety Germidour (2 rows, ~40 cloves). Harvest around July 2025.",
  aliases=["garlic", "Germidour"], facets=["allotment", "planting"], atype="event")
D("g23b", "2024-11-03 18:29", "allotment garlic", "Allotment garlic",
  "Put in Germidour garlic cloves at the allotment on ~27 Oct 2024; expect to lift them in July.",
  aliases=["cloves"], facets=["allotment"], atype="event")

# G24 CPD requirement
D("g24a", "2024-04-20 16:16", "CPD", "CPD requirement",
  "NRCPD CPD: 24 hours per year, at least 12 structured. Logged in the CPD tracker spreadsheet (cpd-2024.ods).",
  aliases=["CPD", "continuing professional development"], facets=["work", "credentials"],
  slots=["hours", "structured"])
X("g24b", "2025-04-03 17:40",
  "Needs 24 CPD hours a year (min 12 structured) to stay on the NRCPD register.")

# G25 website domain
D("g25a", "2024-07-22 22:02", "website", "Mags's website",
  "Website: https://magsokafor-interpreting.example.co.uk — hosted on Netlify; domain registered with 123-reg, renews 2025-08-19.",
  aliases=["site", "domain"], facets=["work", "tech", "renewal"], slots=["url", "host", "renewal"])
D("g25b", "2025-08-05 08:30", "domain renewal", "Domain renewal",
  "Domain magsokafor-interpreting.example.co.uk renews 19 Aug 2025 via 123-reg.",
  aliases=["123-reg"], facets=["tech", "renewal"])

# ---- look-alike partners (not duplicates of anything) ----------------------

# L01 MOT 2025 fail vs retest pass
D("l01a", "2025-07-09 17:12", "Marigold MOT 2025", "T3 MOT 2025 result",
  "T3 MOT at Kirkstall Autos on 2025-07-09 — FAILED: rear brake imbalance. Retest booked for 2025-07-16.",
  aliases=["MOT"], facets=["vehicle", "maintenance", "mot"], atype="event")
D("l01b", "2025-07-16 15:48", "mot retest", "T3 MOT retest",
  "T3 MOT retest at Kirkstall Autos on 2025-07-16 — PASSED after rear brake cylinders replaced (£142).",
  aliases=["retest"], facets=["vehicle", "mot"], atype="event")

# L02 NHS framework rate vs standard rate (g04a)
D("l02b", "2024-10-07 10:34", "NHS framework rate", "NHS interpreting rate",
  "NHS Leeds Teaching Hospitals framework rate: £34/hour, 1-hour minimum booking. No evening uplift.",
  aliases=["NHS", "LTHT"], facets=["work", "money"], slots=["hourly_rate", "minimum"])

# L03 Tuesday Beckett booking vs Thursday college (g15a)
D("l03b", "2024-09-24 12:50", "Leeds Beckett booking", "Tuesday university booking",
  "Regular booking: Tuesdays 14:00–16:00 at Leeds Beckett University, BA Social Work lectures, deaf student Amira. Booked via Signworks.",
  aliases=["Amira", "Leeds Beckett", "Tuesday booking"], facets=["work", "schedule"], atype="event")

# L04 return ferry vs outbound ferry (g19b)
D("l04b", "2025-02-02 10:52", "calmac return", "Ferry back from Arran",
  "Return ferry Brodick→Ardrossan 16 May 2025 16:40, CalMac booking ref CM7731R, foot passenger.",
  aliases=["return ferry"], facets=["travel", "booking"], atype="event")

# L05 Sunny's mum's birthday vs Sunny's birthday (g08a)
D("l05b", "2024-11-20 19:25", "Ingrid birthday", "Sunny's mum's birthday",
  "Sunny's mum Ingrid's birthday: 3 December. Send a card to Harrogate.",
  aliases=["Ingrid", "mother-in-law"], facets=["people", "dates"], atype="person")

# L06 thermostat vs water pump (g13a)
D("l06b", "2024-08-12 21:20", "T3 thermostat", "Thermostat ordered",
  "Thermostat for the T3 (1.9 DG wasserboxer) — part no. 025 121 113, ordered from Just Kampers, £18.50.",
  aliases=["thermostat"], facets=["vehicle", "parts", "money"], atype="event")

# L07 shallots vs garlic (g23a)
D("l07b", "2025-03-15 14:02", "shallot planting", "Shallots planted",
  "Shallots planted at plot 14B in mid March 2025, variety Red Sun (1 row, ~30 sets). Harvest around August 2025.",
  aliases=["shallots", "Red Sun"], facets=["allotment", "planting"], atype="event")

# L08 BSL vs SSE (different student, negation)
D("l08a", "2024-10-02 18:10", "Jamal language", "Jamal's language preference",
  "Jamal (Thursday college student) uses BSL, not Sign Supported English; keep English word order out of it.",
  aliases=["Jamal"], facets=["work", "clients"], atype="person")
D("l08b", "2024-10-02 18:14", "Amira language", "Amira's language preference",
  "Amira (Tuesday Beckett student) uses Sign Supported English, not BSL; she wants English word order kept.",
  aliases=["Amira"], facets=["work", "clients"], atype="person")

# L09 old laptop vs ThinkPad T14 (g17a)
D("l09b", "2025-02-04 15:02", "old laptop", "Backup laptop",
  "Backup machine for VRI: old ThinkPad X230 on Ubuntu 20.04 with Zoom 5.17.11 — only if the T14 dies.",
  aliases=["X230"], facets=["tech"], slots=["machine", "version"])

# L10 council tax two years
D("l10a", "2024-04-05 09:15", "council tax 2024", "Council tax 2024/25",
  "Council tax 2024/25: band B, £1,702.34 for the year, 10 monthly instalments from April.",
  aliases=["council tax"], facets=["home", "money"], atype="event")
D("l10b", "2025-04-04 09:40", "council tax 2025", "Council tax 2025/26",
  "Council tax 2025/26: band B, £1,787.41 for the year, 10 monthly instalments from April.",
  aliases=["council tax"], facets=["home", "money"], atype="event")

# L11 Sunny's swimming vs Mags's swimming (g18a)
D("l11b", "2024-05-06 06:52", "Sunny swimming", "Sunny's swims",
  "Sunny swims Tue/Thu 18:30 at the John Charles Centre (lane swim, ~2 km).",
  aliases=["Sunny"], facets=["routine"], atype="person")

# L12 Aunt's phone vs Mum's phone (g20b)
D("l12b", "2025-05-11 09:25", "Auntie Ngozi", "Aunt's number",
  "Auntie Ngozi's number: 01632 960181 (mobile, Bradford). She prefers WhatsApp.",
  aliases=["Ngozi", "aunt"], facets=["contacts", "family"], atype="person")

# L13 two invoices
D("l13a", "2024-12-02 11:00", "invoice MO-2024-031", "Invoice MO-2024-031 paid",
  "Signworks paid invoice MO-2024-031 (£456, November college hours) on 2024-12-02.",
  aliases=["MO-2024-031"], facets=["work", "money"], atype="event")
D("l13b", "2025-01-06 11:05", "invoice MO-2024-032", "Invoice MO-2024-032 paid",
  "Signworks paid invoice MO-2024-032 (£380, December college hours) on 2025-01-06.",
  aliases=["MO-2024-032"], facets=["work", "money"], atype="event")

# ---- singletons ------------------------------------------------------------

D("s01", "2024-03-10 19:50", "Mags", "Who the user is",
  "User is Margaret Okafor-Reid, goes by Mags — never 'Maggie' or 'Margaret'. Freelance BSL/English interpreter in Leeds.",
  aliases=["Margaret Okafor-Reid", "user"], facets=["identity"], slots=["name", "job"], atype="person")
D("s02", "2024-03-18 21:10", "Sunny job", "Sunny's work",
  "Sunny works as a paramedic with Yorkshire Ambulance Service, 4-on-4-off shifts (days/nights).",
  aliases=["Sunny", "paramedic"], facets=["people", "work"], atype="person")
D("s03", "2024-04-02 18:02", "Pebble", "Pebble the cat",
  "Pebble: grey British Shorthair, female, born ~2019, microchip 941000024567123. Indoor cat.",
  aliases=["cat"], facets=["pets", "identity"], slots=["breed", "microchip"], atype="pet")
D("s04", "2024-04-11 07:35", "bike", "Bike",
  "Bike: Genesis Croix de Fer, 54cm frame. Commutes to the college by bike when dry.",
  aliases=["Croix de Fer"], facets=["transport"])
D("s05", "2024-04-21 10:02", "coffee", "Favourite café",
  "Favourite coffee stop: Laynes Espresso by Leeds station — flat white, oat milk.",
  aliases=["Laynes"], facets=["preferences", "places"], atype="place")
D("s06", "2025-03-05 20:15", "S209 exam", "S209 exam date",
  "S209 exam: 2025-06-05 14:00, online with remote invigilation. Allowed: calculator, no notes.",
  aliases=["exam"], facets=["study", "dates"], atype="event")
D("s07", "2024-05-04 16:40", "deaf club", "Deaf club volunteering",
  "Deaf club meets the first Saturday of each month at Leeds Deaf Forum, 14:00–17:00. Mags volunteers (tea + signing practice table).",
  aliases=["Leeds Deaf Forum"], facets=["community", "schedule"], atype="organisation")
D("s08", "2024-05-20 13:13", "training background", "Interpreting qualification",
  "Qualified via University of Wolverhampton, BA (Hons) Interpreting BSL/English, graduated 2014.",
  aliases=["degree", "Wolverhampton"], facets=["work", "credentials"])
D("s09", "2024-09-12 13:20", "Signworks", "Agency contact",
  "Agency: Signworks Leeds. Bookings contact Dan Whitfield, bookings@signworks.example, 0113 496 0957. Pays on 30-day terms.",
  aliases=["Dan Whitfield", "agency"], facets=["work", "contacts"], atype="organisation")
D("s10", "2024-06-28 22:30", "late bookings", "Late booking rule",
  "Doesn't take mental-health or medical bookings that start after 20:00 — too draining.",
  aliases=["boundaries"], facets=["work", "preferences"], atype="preference")
X("s11", "2024-10-30 19:00",
  "Drain the van's fresh water tank before November so it doesn't freeze; leave the tap open.")
D("s12", "2024-12-15 21:45", "reading", "Current reading",
  "Reading 'The Hidden Landscape' by Richard Fortey as background for S209.",
  aliases=["book"], facets=["study", "reading"])
D("s13", "2024-06-16 09:12", "sourdough", "Sourdough starter",
  "Sourdough starter is called Doris; fed every Sunday morning, 1:1:1 with strong white flour.",
  aliases=["Doris", "starter"], facets=["home", "cooking"])
D("s14", "2024-08-20 08:00", "Sunny car", "Sunny's car",
  "Sunny drives a 2016 Skoda Octavia estate, reg YK16 HBP, silver.",
  aliases=["Octavia"], facets=["vehicle", "people"], atype="vehicle")
D("s15", "2024-07-01 12:00", "pension", "Pension",
  "Pension: pays £150/month into a SIPP with AJ Bell (global tracker fund).",
  aliases=["SIPP", "AJ Bell"], facets=["money"])
D("s16", "2024-09-12 13:30", "emergency contact", "Emergency contact",
  "Emergency contact on booking forms: Sunny, 07700 900462.",
  aliases=["ICE"], facets=["contacts", "work"])
D("s17", "2024-03-10 19:55", "Mags phone", "Mags's mobile",
  "Mags's work mobile: 07700 900731 (also on the website).",
  aliases=["mobile"], facets=["contacts", "identity"])
D("s18", "2024-07-06 13:55", "shed padlock", "Shed padlock code",
  "Allotment shed padlock code: 4719.",
  aliases=["padlock"], facets=["allotment", "security"], sensitivity="secret", recall="never")
D("s19", "2025-04-22 16:45", "school talk", "Deaf Awareness Week talk",
  "Deaf Awareness Week talk at Meanwood C of E Primary on 2025-05-08, 09:15 assembly; fee waived.",
  aliases=["Deaf Awareness Week"], facets=["work", "community", "dates"], atype="event")
D("s20", "2025-03-02 20:40", "Northumberland trip", "Summer camping plan",
  "Summer 2025 camping in Marigold: Beadnell Bay campsite, Northumberland, 2025-08-04 to 2025-08-10. Pitch 23, electric hook-up.",
  aliases=["Beadnell", "camping"], facets=["travel", "vehicle"], atype="event")
D("s21", "2024-08-25 18:18", "van electrics", "Van electrics",
  "Leisure battery: 110Ah AGM fitted Aug 2024; 100W solar panel on the pop-top with a Victron 75/15 controller.",
  aliases=["leisure battery", "solar"], facets=["vehicle", "electrics"])
D("s22", "2024-11-10 21:02", "OU referencing", "Assignment rules",
  "OU assignments: Harvard referencing; word limit is strict (±10%), and TMA cover sheet via the eTMA system.",
  aliases=["TMA", "referencing"], facets=["study"])
X("s23", "2024-05-27 08:20",
  "Guardian quick crossword on the bus most mornings — likes cryptics but rarely finishes them.")
D("s24", "2025-01-05 14:30", "rock collection", "Rock collection",
  "Rock and fossil samples are in the loft, catalogued in rocks.ods (location, date, grid ref).",
  aliases=["samples", "fossils"], facets=["study", "hobby"])
D("s25", "2024-06-25 19:30", "supervision", "Professional supervision",
  "Monthly peer supervision with Carol Ibbotson, last Tuesday of the month, 19:00 on Zoom.",
  aliases=["Carol Ibbotson"], facets=["work", "schedule"], atype="event")
D("s26", "2024-03-12 09:00", "home", "Home area",
  "Lives in the Brudenell area of Hyde Park, Leeds (LS6), in a rented terrace.",
  aliases=["Hyde Park", "LS6"], facets=["home", "identity"], atype="place")
D("s27", "2025-01-02 10:10", "volunteer hours", "Deaf club hours 2024",
  "Volunteer hours at the deaf club in 2024: 18 h total.",
  aliases=["volunteering"], facets=["community"], atype="event")
D("s28", "2024-06-01 07:30", "reminder times", "Reminder hours",
  "Don't send reminders before 08:00 or after 22:00.",
  aliases=["quiet hours"], facets=["preferences", "assistant"], atype="preference")
D("s29", "2025-06-30 21:05", "International Sign course", "International Sign course",
  "Interested in an International Sign evening course in Doncaster starting September 2025, £320, 10 weeks.",
  aliases=["IS", "International Sign"], facets=["work", "study", "cpd"])
D("s30", "2024-04-13 12:40", "allotment neighbour", "Plot neighbour",
  "Allotment neighbour on plot 14A is Bernard — gives away rhubarb."
  + MERGE_SEP.format("2025-03-02")
  + "Bernard (plot 14A) is away Feb–Mar 2025; water his overwintering broad beans if it's dry.",
  aliases=["Bernard", "plot 14A"], facets=["allotment", "people"], atype="person",
  updated="2025-03-02 11:30", semantics="append-document")
X("s31", "2024-05-09 20:20",
  "Remember the recycling: green bin goes out Tuesday night, fortnightly; black bin weekly.")
X("s32", "2024-10-14 18:35",
  "Boiler service due every October — British Gas HomeCare, ref HC-8812034.")
D("s33", "2024-12-10 19:00", "Yorkshire Geological Society", "Geology society",
  "Member of the Yorkshire Geological Society since 2024; subs £25/year; field meetings on some Saturdays.",
  aliases=["YGS"], facets=["study", "hobby", "money"], atype="organisation")
D("s34", "2025-05-24 17:02", "tyre pressures", "Van tyre pressures",
  "Marigold tyre pressures: front 2.8 bar, rear 3.1 bar when loaded for camping.",
  aliases=["tyres"], facets=["vehicle", "maintenance"])
D("s35", "2024-05-14 15:40", "self-employment", "Self-employed status",
  "Self-employed since 2016. UTR lives in Bitwarden, not in memory.",
  aliases=["UTR"], facets=["money", "tax"])
D("s36", "2024-11-25 18:45", "energy tariff", "Energy tariff",
  "Energy supplier Octopus, Agile tariff; runs the washing machine in the cheap overnight slots.",
  aliases=["Octopus", "Agile"], facets=["home", "utilities"])
D("s37", "2025-02-18 12:05", "van fuel economy", "Van MPG",
  "Marigold does about 22 mpg on the motorway at 55 mph; tank is 60 litres.",
  aliases=["fuel"], facets=["vehicle"])
D("s38", "2025-08-18 20:50", "pop-top canvas", "Pop-top canvas",
  "Pop-top canvas re-proofed with Fabsil in June 2025; next treatment in two years.",
  aliases=["canvas", "pop-top"], facets=["vehicle", "maintenance"])
D("s39", "2024-07-18 09:26", "conference", "ASLI conference",
  "Going to the ASLI conference in Manchester 2024-10-19, early-bird ticket £95 — counts as structured CPD.",
  aliases=["ASLI"], facets=["work", "cpd", "dates"], atype="event")
D("s40", "2025-06-07 18:15", "S209 result", "S209 result",
  "Passed S209 with a grade 2 pass (overall 78%). Next module S309 from October 2025.",
  aliases=["result", "S309"], facets=["study"], atype="event")

# hidden rows the daemon leaves behind (not part of any duplicate group)
D("h01", "2024-09-26 08:05", "van at garage", "Van at garage",
  "Marigold is at Kirkstall Autos until Friday for the clutch cable.",
  aliases=["garage"], facets=["vehicle"], updated="2024-10-02 19:40",
  semantics="tombstone", recall="never")
D("h02", "2025-05-16 21:30", "compaction-boundary", "compaction-boundary",
  "Conversation compacted: discussed Arran trip packing list and S209 revision timetable.",
  path="none", klass="evidence", recall="manual", semantics="merge-document",
  atype="event", conf=0.6)
D("h03", "2024-04-09 22:10", "turn-complete", "turn-complete",
  "User asked how to descale the van's water pump; assistant gave generic steps.",
  path="none", klass="trace", recall="never", semantics="conversation_trace",
  atype="event", conf=0.5)

# ---------------------------------------------------------------------------
# Labels
# ---------------------------------------------------------------------------

DUP_GROUPS = [
    ["g01a", "g01b", "g01c"], ["g02a", "g02b"], ["g03a", "g03b", "g03c"],
    ["g04a", "g04b", "g04c"], ["g05a", "g05b", "g05c"], ["g06a", "g06b", "g06c"],
    ["g07a", "g07b", "g07c"], ["g08a", "g08b"], ["g09a", "g09b", "g09c", "g09d"],
    ["g10a", "g10b"], ["g11a", "g11b"], ["g12a", "g12b"], ["g13a", "g13b"],
    ["g14a", "g14b"], ["g15a", "g15b"], ["g16a", "g16b"], ["g17a", "g17b"],
    ["g18a", "g18b"], ["g19a", "g19b", "g19c"], ["g20a", "g20b", "g20c"],
    ["g21a", "g21b"], ["g22a", "g22b"], ["g23a", "g23b"], ["g24a", "g24b"],
    ["g25a", "g25b"],
]

LOOKALIKES = [
    ["l01a", "l01b", "different MOT event: 2025-07-09 FAILED (rear brakes) vs 2025-07-16 retest PASSED (£142)"],
    ["g04a", "l02b", "different client/rate: standard £38/h, 2-hour minimum, +50% uplift "
                     "vs NHS framework £34/h, 1-hour minimum, no uplift"],
    ["g15a", "l03b", "different booking: Thursday 10:00-12:00 Leeds City College, Jamal vs Tuesday 14:00-16:00 Leeds Beckett, Amira"],
    ["g19b", "l04b", "opposite direction: outbound Ardrossan->Brodick 12 May ref CM7731Q vs return Brodick->Ardrossan 16 May ref CM7731R"],
    ["g08a", "l05b", "different person and month: Sunny 3 September vs Sunny's mum Ingrid 3 December"],
    ["g13a", "l06b", "different part: water pump 025 121 010 C £64.20 vs thermostat 025 121 113 £18.50"],
    ["g23a", "l07b", "different crop and dates: garlic Germidour Oct 2024/harvest July vs shallots Red Sun March 2025/harvest August"],
    ["l08a", "l08b", "different student and negated language: Jamal BSL not SSE vs Amira SSE not BSL"],
    ["g17a", "l09b", "different machine/versions: ThinkPad T14, Ubuntu 22.04, Zoom 6.0.2 vs ThinkPad X230, Ubuntu 20.04, Zoom 5.17.11"],
    ["l10a", "l10b", "different tax year and amount: 2024/25 £1,702.34 vs 2025/26 £1,787.41"],
    ["g18a", "l11b", "different person/place/days: Mags Mon/Wed 07:00 Kirkstall vs Sunny Tue/Thu 18:30 John Charles Centre"],
    ["g20b", "l12b", "different person and number: Mum 01632 960118 landline vs Auntie Ngozi 01632 960181 mobile"],
    ["l13a", "l13b", "different invoice: MO-2024-031 £456 paid 2024-12-02 vs MO-2024-032 £380 paid 2025-01-06"],
]

ABOUT = (
    "An outside Netclaw memory store written blind to memgui's code, from the Netclaw spec only "
    "(/work/shared/spec/netclaw-memory.md): schema, id shapes, wire values and FTS5 tables as the "
    "daemon writes them. Persona: Mags Okafor-Reid, freelance BSL/English interpreter in Leeds, "
    "1987 VW T3 camper 'Marigold', allotment plot 14B, Open University geology student; "
    "March 2024 - September 2025. duplicate_groups: notes a person would merge into one "
    "(paraphrases, subsets, complementary details of the same thing; each under a different anchor, "
    "as near-duplicates that slipped past curation would be). lookalike_pairs: notes that read alike "
    "but state different facts and must stay separate; some pair a duplicate-group member with an "
    "outside note. Also present and in no label: singletons, one tombstoned document, one "
    "compaction-boundary (manual) and one conversation trace (never) document, one secret document, "
    "two documents with `_[merged YYYY-MM-DD]_` append history, evidence records, checkpoints. "
    "No embeddings (Memory.Embeddings disabled in this store's era)."
)

# ---------------------------------------------------------------------------
# Records, checkpoints, daemon tables
# ---------------------------------------------------------------------------

RECORDS = [
    ("r01", "2025-02-03 17:20", "fuel price check", "price-check",
     dict(SubjectKind="place", SubjectValue="Tesco Headingley", Predicate="E5 price per litre",
          ObjectValue="£1.58", Rationale="user mentioned filling the van with super unleaded")),
    ("r02", "2025-03-10 08:40", "Marigold mileage", "odometer-reading",
     dict(SubjectKind="vehicle", SubjectValue="Marigold", Predicate="odometer",
          ObjectValue="148,210 miles", Rationale="user read the odometer before the Easter trip")),
    ("r03", "2025-06-02 21:00", "S209 revision", "study-log",
     dict(SubjectKind="project", SubjectValue="S209", Predicate="revision hours this week",
          ObjectValue="11", Rationale="user logged revision before the exam")),
    ("r04", "2025-07-28 18:30", "garlic harvest", "harvest-log",
     dict(SubjectKind="place", SubjectValue="plot 14B", Predicate="garlic harvested",
          ObjectValue="38 bulbs", Rationale="user lifted the garlic")),
]

CHECKPOINTS = [
    ("c01", "2025-08-05 08:29", "observed-memory-proposals", 50),
    ("c02", "2025-09-30 18:01", "observed-memory-proposals", 50),
    ("c03", "2025-07-20 15:43", "explicit-memory-request", 100),
]
