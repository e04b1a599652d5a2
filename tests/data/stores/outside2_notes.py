"""The memories of the second outside store (build it with
`outside_store.py OUT.db --notes outside2_notes`): Tomasz "Tom" Kowalczyk, lead antimicrobial pharmacist
at Southmead Hospital in Bristol, who coaches his daughter's girls' football team (Horfield Hawks), sells
stoneware on Etsy (AshdownClay) and is building a rear kitchen extension; about 16 months of notes
(May 2024 - August 2025), with the duplicate groups and look-alike pairs they hold. Same interface as
outside_store_notes.py. Written blind to memgui's code, from the Netclaw memory spec only. Stdlib only;
ids and timestamps are deterministic."""

from outside_ids import MERGE_SEP, anchor_id, make_ids, ms  # noqa: F401 (the builder reads them here)

SEED_NS = "netclaw-outside-store/kowalczyk"
doc_id, rec_id, cp_id = make_ids(SEED_NS)

# Optional builder overrides (see outside_store.py).
MIGRATIONS = [
    (1, "001_initial", "2024-05-04 19:30"),
    (2, "002_sessions", "2024-05-04 19:30"),
    (3, "003_session_channels", "2024-07-02 21:15"),
    (4, "004_session_titles", "2024-12-03 20:40"),
    (5, "005_session_archive", "2025-03-08 10:05"),
    (6, "006_session_storage_bindings", "2025-06-28 09:20"),
]
# A consolidation re-anchored the only doc of "pottery" onto "ceramics shop" (g05b).
TOMBSTONED_ANCHOR = ("pottery", "organisation", "2024-09-14 08:20")

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
# Every document sits under its own anchor (two documents on one anchor would
# have been appended into one row by the store's dedup-collision path).
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

# G01 GPhC registration, renewal and revalidation
D("g01a", "2024-05-05 20:14", "GPhC registration", "GPhC registration",
  "GPhC registration no. 2071846 (pharmacist, registered since 2005). Renew online by 31 May every year — fee £257 for 2024.",
  aliases=["GPhC", "registration number"], facets=["work", "credentials"],
  slots=["registration_number", "renewal", "fee"])
X("g01b", "2024-11-12 21:07",
  "Revalidation (GPhC) each year: 4 CPD records, at least 2 of them planned, + 1 peer discussion + 1 reflective account; submitted alongside the renewal.")
D("g01c", "2025-05-18 19:40", "pharmacist renewal", "Renewed registration 2025",
  "Renewed GPhC reg 2071846 on 18/05/25, £267 this year (up from £257). Peer discussion for reval done with Dr Aoife Brennan, consultant microbiologist.",
  aliases=["renewal", "revalidation"], facets=["work", "credentials", "renewal"])

# G02 the team Tom coaches
D("g02a", "2024-08-24 11:30", "Horfield Hawks", "Football team Tom coaches",
  "Tom is head coach of Horfield Hawks U11 Girls (Bristol Girls League, Division 2). Zosia plays for them, usually at left back.",
  aliases=["Hawks", "HHFC", "U11 girls"], facets=["football", "coaching"],
  slots=["team", "role", "league"], atype="organisation")
X("g02b", "2024-10-05 09:02",
  "Coaching the Hawks u11s on Saturdays — 9v9 league games, Bristol Girls Div 2; asst coach Priti Desai.")
D("g02c", "2025-08-30 10:00", "u12 girls squad", "Hawks squad 2025/26",
  "Hawks girls move up to U12 for 2025/26 — same squad (14 players), still 9v9. Head coach Tom, assistant Priti Desai, club welfare officer Gill Harper 07700 900318.",
  aliases=["U12 girls", "squad"], facets=["football", "coaching", "contacts"], atype="organisation")

# G03 Tuesday training
D("g03a", "2024-08-27 18:40", "Hawks training", "Training night",
  "Training Tue 18:00–19:15, Horfield Common 3G, pitch 2. Arrive 17:45 to put the goals up.",
  aliases=["training", "3G"], facets=["football", "schedule"], slots=["day", "time", "place"],
  atype="event")
D("g03b", "2024-10-15 19:30", "tuesday session", "Tuesday session booking",
  "Tuesdays 6–7.15pm on the 3G at Horfield Common (pitch 2) — booked through Bristol Sport, £42 a session, club pays the invoice monthly.",
  aliases=["pitch booking"], facets=["football", "money"], atype="event")

# G04 subs, match fees and registration
D("g04a", "2024-07-20 11:05", "Hawks subs", "Club fees",
  "Subs: £3 per player per match, collected on Spond. Season registration £95/child, due end of August.",
  aliases=["subs", "match fees"], facets=["football", "money"], slots=["match_fee", "registration"])
X("g04b", "2024-08-20 20:12",
  "Spond = the club app. Availability poll goes out every Monday night; match fee £3 collected there, parents get a reminder Thursday.")
D("g04c", "2025-08-03 10:22", "club registration", "Registration 2025/26",
  "2025/26 Hawks registration: £95 per player, pay by 31 Aug 2025 (siblings £80). Match fee unchanged at £3 via Spond.",
  aliases=["registration fee"], facets=["football", "money", "dates"])

# G05 the Etsy shop
D("g05a", "2024-05-06 21:30", "AshdownClay Etsy shop", "Etsy shop",
  "Etsy shop: AshdownClay — https://www.etsy.com/shop/AshdownClay — open since March 2023. Stoneware mugs, bud vases and small planters.",
  aliases=["AshdownClay", "Etsy"], facets=["etsy", "ceramics", "identity"],
  slots=["shop_name", "url", "products"], atype="organisation")
D("g05b", "2024-09-14 08:20", "ceramics shop", "Pottery shop stats",
  "Tom's pottery sells on Etsy as AshdownClay: 163 sales so far, 4.9 stars (61 reviews). Star Seller badge since Aug 2024.",
  aliases=["pottery shop"], facets=["etsy", "ceramics"], atype="organisation")
X("g05c", "2025-03-09 22:15",
  "AshdownClay payouts land in the Starling business account each Monday; shop has ~48 active listings (Mar 2025).")

# G06 shipping mugs (UK)
D("g06a", "2024-06-02 16:45", "Etsy shipping", "How mugs are shipped",
  "Mugs go Royal Mail Tracked 48, medium parcel, label from Click & Drop (£4.39). Double-boxed, 5 cm of bubble wrap each side.",
  aliases=["shipping", "Royal Mail"], facets=["etsy", "shipping"], slots=["service", "packaging", "cost"])
X("g06b", "2024-07-14 19:20",
  "Postage: RM Tracked 48 med parcel; buyer pays £5.95 flat UK; dispatch within 3 working days.")
D("g06c", "2025-04-08 20:10", "parcel packing", "Packing ceramics",
  "Packing rule for pots: box in a box, ≥5cm bubble all round, FRAGILE tape on 4 sides. Click & Drop price for Tracked 48 medium went up to £4.59 in April 2025.",
  aliases=["packing", "FRAGILE"], facets=["etsy", "shipping"])

# G07 the studio
D("g07a", "2024-05-06 21:40", "Clayground Collective", "Pottery studio",
  "Studio: Clayground Collective, Unit 4, Mill Lane Yard, Bedminster BS3. Membership £85/month, 24/7 access; Tom's shelf is B7.",
  aliases=["Clayground", "studio"], facets=["ceramics", "places", "money"],
  slots=["studio", "membership_fee", "shelf"], atype="organisation")
X("g07b", "2024-12-20 18:02",
  "Studio membership goes up to £92/mo from 1 Jan 2025 (Clayground). 24/7 fob access stays the same.")
D("g07c", "2025-06-11 21:15", "pottery studio", "Studio details",
  "Clayground Collective, Bedminster — shelf B7, fob no. 0412; membership collected by direct debit on the 1st of the month.",
  aliases=["fob"], facets=["ceramics", "places"], atype="place")

# G08 glaze firings
D("g08a", "2024-06-19 22:05", "glaze firing", "Glaze firings at the studio",
  "Glaze firing: cone 6 oxidation (~1222 °C). Book a shelf on the studio Google Sheet; £12 per shelf.",
  aliases=["glaze kiln", "cone 6"], facets=["ceramics", "kiln", "money"], slots=["cone", "price"])
X("g08b", "2025-02-16 17:35",
  "Glaze kiln runs Wed & Sat nights; wait 48h before unloading. Cone 6, twelve quid a shelf.")

# G09 the planning application
D("g09a", "2024-10-07 20:30", "extension planning application", "Planning application submitted",
  "Householder planning application for the single-storey rear extension submitted to Bristol City Council on 2024-10-07, ref 24/04418/H. Architect: Nadia Okoro (Okoro Studio).",
  aliases=["planning", "24/04418/H"], facets=["extension", "planning"],
  slots=["reference", "submitted", "architect"], atype="event")
D("g09b", "2024-11-21 12:40", "planning ref", "Planning: case officer",
  "Bristol planning 24/04418/H: case officer Mark Ellery, 8-week target date 2 Dec 2024. Consultation closed 14 Nov, no objections.",
  aliases=["case officer", "Mark Ellery"], facets=["extension", "planning"], atype="event")
X("g09c", "2025-01-10 08:55",
  "Planning permission GRANTED 08/01/2025 for 24/04418/H — conditions: bricks to match existing, no windows in the side (north) wall.")

# G10 extension design
D("g10a", "2024-08-17 15:00", "extension design", "Extension design",
  "Extension: single-storey at the back, 4.0 m deep × 6.2 m wide (full width), flat roof with two rooflights; bifold doors to the garden.",
  aliases=["extension", "kitchen extension"], facets=["extension", "design"],
  slots=["depth", "width", "roof"])
X("g10b", "2024-09-01 21:10",
  "Kitchen extension: 4m out, full width, and no higher than 3.0m at the boundary with no. 45.")
D("g10c", "2025-02-07 21:20", "rear extension spec", "Extension spec (rev C)",
  "Okoro Studio drawings rev C: flat roof, 2× rooflights 1000×1500 mm, 3-panel aluminium bifolds in anthracite grey (RAL 7016), underfloor heating in the new bit.",
  aliases=["drawings", "rev C"], facets=["extension", "design"])

# G11 the builder
D("g11a", "2025-02-14 19:05", "builder quotes", "Builder chosen",
  "Going with Brunel Build Ltd (Gareth Pugh): £68,400 inc VAT, 14 weeks. Pencilled start 2025-04-14.",
  aliases=["builder", "Brunel Build"], facets=["extension", "money"],
  slots=["builder", "price", "duration", "start"], atype="event")
D("g11b", "2025-02-21 16:30", "Brunel Build", "Builder contact + deposit",
  "Brunel Build — Gareth Pugh, 07700 900651, gareth@brunelbuild.example. 10% deposit (£6,840) paid 21/02/2025 by bank transfer.",
  aliases=["Gareth Pugh"], facets=["extension", "contacts", "money"], atype="organisation")
X("g11c", "2025-04-09 07:48",
  "Builders start Mon 14 Apr; skip arrives Fri 11 Apr, goes on the drive. Brunel say 14 wks → finish mid-July.")

# G12 party wall with no. 41
D("g12a", "2024-12-16 21:00", "party wall", "Party wall notice (no. 41)",
  "Party wall notice served on no. 41 (Sean & Maria Delaney) on 2024-12-16 for the extension footings.",
  aliases=["party wall", "Delaney"], facets=["extension", "neighbours", "legal"], atype="event")
X("g12b", "2025-01-09 19:44",
  "Delaneys at 41 signed the party wall consent — no surveyor needed (09 Jan 2025).")

# G13 pharmacy on-call
D("g13a", "2024-06-08 10:00", "pharmacy on-call", "On-call",
  "Pharmacy on-call from home 1 week in 7 (Mon 17:00 → next Mon 08:30). Calls come via Southmead switchboard.",
  aliases=["on-call", "oncall"], facets=["work", "schedule"], slots=["frequency"])
X("g13b", "2024-10-22 22:40",
  "On-call weeks: Priti runs Tuesday training instead of Tom; phone on loud, he must be able to get to site within 30 min.")
D("g13c", "2025-03-24 18:15", "out of hours rota", "On-call rota change",
  "From March 2025 the pharmacy on-call rota is 1 in 8 (new starter joined). Still home-based; dispensary ext. 4412.",
  aliases=["rota"], facets=["work", "schedule"])

# G14 the job
D("g14a", "2024-05-04 20:45", "Southmead job", "Job",
  "Lead Antimicrobial Pharmacist, Band 8a, at Southmead Hospital (North Bristol NHS Trust). In post since September 2021.",
  aliases=["job", "NBT", "Southmead"], facets=["work", "identity"],
  slots=["role", "band", "employer", "start"])
D("g14b", "2024-07-30 17:25", "AMS rounds", "Stewardship ward rounds",
  "AMS ward rounds with micro are Tue + Thu mornings; Tom's been the 8a antimicrobial lead since '21.",
  aliases=["AMS", "antimicrobial stewardship"], facets=["work", "schedule"], atype="event")
D("g14c", "2025-05-02 13:00", "NBT pharmacy team", "Line manager and bleep",
  "At NBT Tom reports to Ruth Adeyemi (Deputy Chief Pharmacist). Bleep 2231; works Mon–Fri 08:30–17:00.",
  aliases=["Ruth Adeyemi", "bleep"], facets=["work", "contacts"])

# G15 Zosia
D("g15a", "2024-05-05 11:10", "Zosia", "Daughter",
  "Daughter: Zosia (Zofia) Kowalczyk, born 2014-06-11. Horfield CofE Primary.",
  aliases=["Zosia", "Zofia", "daughter"], facets=["family", "people"],
  slots=["name", "birthday", "school"], atype="person")
D("g15b", "2024-09-05 08:10", "zosia school", "Zosia school year",
  "Zosia started Year 5 in Sept 2024 — class Willow, teacher Mrs Tranter. Packed lunch Mon–Thu, hot dinner Fri.",
  aliases=["Willow class", "Mrs Tranter"], facets=["family", "school"], atype="person")
X("g15c", "2025-06-01 09:30",
  "Zofia's birthday is 11 June — she's 11 this year; allergic to kiwi, so check party food.")

# G16 Hannah
D("g16a", "2024-05-04 21:00", "Hannah", "Wife",
  "Wife: Hannah Kowalczyk (née Barnes), primary teacher — Year 2 at Filton Avenue Primary. Mobile 07700 900284.",
  aliases=["Hannah", "wife"], facets=["family", "people", "contacts"],
  slots=["name", "job", "phone"], atype="person")
D("g16b", "2024-06-22 17:45", "hannah contact", "Reaching Hannah",
  "hannah's mob 07700900284 — unreachable in class till ~15:30, text don't call.",
  aliases=["Hannah's phone"], facets=["contacts", "family"], atype="person")

# G17 Mum (the first member carries append history)
D("g17a", "2024-05-12 18:30", "Mama", "Mum",
  "Mum is Krystyna Kowalczyk, lives in Swindon (SN2). Mostly speaks Polish on the phone; calls Tom 'Tomek'."
  + MERGE_SEP.format("2025-01-19")
  + "Mum's landline: 01632 960 774 — her mobile is usually off.",
  aliases=["Krystyna", "mother"], facets=["people", "family", "contacts"],
  slots=["name", "town", "phone"], atype="person", updated="2025-01-19 15:05",
  semantics="append-document")
X("g17b", "2025-06-15 14:21",
  "Krystyna (Tom's mum) — visit every other Sunday, M4 to J16; ring the landline 01632960774 first.")

# G18 brother
D("g18a", "2024-06-09 20:00", "Łukasz", "Brother",
  "Brother Łukasz lives in Kraków (Podgórze); software tester. WhatsApp +48 512 000 237.",
  aliases=["Łukasz", "brother"], facets=["family", "people", "contacts"],
  slots=["name", "city", "phone"], atype="person")
X("g18b", "2025-02-23 16:10",
  "Lukasz (brother, Krakow) only uses WhatsApp: +48 512 000 237. Partner = Ola; they visit Bristol at Easter.")

# G19 Tom's hay fever
D("g19a", "2024-05-20 07:50", "Tom hay fever", "Hay fever",
  "Tom: hay fever (grass pollen). Cetirizine 10 mg once daily May–Aug.",
  aliases=["hay fever", "cetirizine"], facets=["health"], slots=["condition", "medication"],
  atype="person")
X("g19b", "2025-05-12 07:30",
  "Hayfever bad again — cetirizine 10mg OD plus Avamys (fluticasone furoate 27.5 mcg/spray), 2 sprays each nostril in peak weeks.")

# G20 the 2025 summer tournament
D("g20a", "2025-05-28 20:20", "Clifton Rockets tournament 2025", "Summer tournament 2025",
  "Hawks entered the Clifton Rockets summer tournament: Sun 2025-06-22 at Coombe Dingle Sports Complex. Entry £40, paid from club funds.",
  aliases=["tournament", "Clifton Rockets"], facets=["football", "dates"],
  slots=["date", "venue", "fee"], atype="event")
X("g20b", "2025-06-10 21:05",
  "Tourney 22/06 at Coombe Dingle — U11G group B, parents there by 09:45, Tom bringing the gazebo + first-aid kit.")
D("g20c", "2025-06-21 19:50", "tournament kick-off", "Tomorrow's first game",
  "Sunday's first game: 10:20 vs Bradley Stoke Blues (group B), Coombe Dingle pitch 7. Team sheet: 10 girls, Zosia in goal for the first half.",
  aliases=["team sheet"], facets=["football", "schedule"], atype="event")

# G21 gluten-free
D("g21a", "2024-05-04 21:10", "coeliac", "Coeliac disease",
  "Tom has coeliac disease (diagnosed 2016): strictly gluten-free; oats only if certified GF.",
  aliases=["coeliac", "gluten-free", "GF"], facets=["health", "food"], slots=["condition", "diet"],
  atype="person")
X("g21b", "2024-07-03 18:55",
  "No gluten for Tom at all — cross-contamination counts, he has his own toaster + butter.")
D("g21c", "2024-12-01 13:20", "eating out", "Eating out with Tom",
  "Restaurants for Tom must do proper GF (Coeliac UK accredited is best). Safe in Bristol: Saffron Thali (Easton), Nonna Rosa on Gloucester Rd (GF pasta on request).",
  aliases=["restaurants"], facets=["food", "preferences", "places"], atype="preference")
D("g21d", "2025-04-27 17:05", "cooking for Tom", "Cooking constraints",
  "Cooking for the family: Tom is GF (coeliac) — use Doves Farm GF plain flour + ½ tsp xanthan per 150 g; Hannah and Zosia eat gluten.",
  aliases=["GF baking"], facets=["food", "cooking"])

# G22 the Oat Speckle mug
D("g22a", "2024-08-11 21:40", "Oat Speckle mug", "Best seller",
  "Best seller: 'Oat Speckle' mug, 350 ml, £28. Speckled buff stoneware, cone 6, dishwasher safe.",
  aliases=["Oat Speckle", "mug"], facets=["etsy", "products", "money"],
  slots=["product", "size", "price"])
D("g22b", "2025-07-01 09:15", "mug pricing", "Mug price rise",
  "Raised the Oat Speckle mug to £30 from 1 July 2025 (was £28) — clay and postage up. ~12 in stock.",
  aliases=["price rise"], facets=["etsy", "money"])

# G23 clay supplier
D("g23a", "2024-06-25 19:00", "clay supplier", "Clay supplier",
  "Clay: buff speckled stoneware from Bath Potters' Supplies — 12.5 kg bags at £17.40; order 6 bags at a time.",
  aliases=["Bath Potters", "clay"], facets=["ceramics", "suppliers", "money"],
  slots=["supplier", "price", "quantity"])
D("g23b", "2024-10-29 20:33", "Bath Potters", "Clay account",
  "Bath Potters — delivery free over £100; Tom's trade account BPS-20931.",
  aliases=["trade account"], facets=["ceramics", "suppliers"], atype="organisation")

# G24 extension budget and funding
D("g24a", "2024-09-22 20:00", "extension budget", "Extension budget",
  "Budget for the extension: £85k all-in incl. 10% contingency. Funded: £60k further advance on the Nationwide mortgage + £25k savings.",
  aliases=["budget"], facets=["extension", "money"], slots=["budget", "contingency", "funding"])
X("g24b", "2025-01-22 12:15",
  "Nationwide further advance approved 21/01/2025 — £60,000, 4.29% fixed for 5 yrs, monthly payment up ~£310.")
D("g24c", "2025-03-02 19:30", "extension costs", "Extension cost breakdown",
  "Extension committed spend: build £68.4k (Brunel), architect £4.2k, structural engineer £1.1k, building control £1,080. Ceiling still £85k.",
  aliases=["costs"], facets=["extension", "money"])

# G25 coaching credentials
D("g25a", "2024-05-18 10:30", "FA coaching badge", "Coaching qualification",
  "FA Introduction to Coaching Football (Level 1) done Oct 2023. Emergency First Aid in Football (EFAiF) valid until Oct 2026.",
  aliases=["FA Level 1", "EFAiF"], facets=["football", "credentials"],
  slots=["qualification", "first_aid"])
X("g25b", "2024-09-08 19:15",
  "DBS for coaching (via the FA): cert no. 001782345671, issued 2023-09-04, renews every 3 yrs.")
D("g25c", "2025-07-14 20:00", "coach credentials", "Coaching creds check",
  "Club welfare check Jul 2025: FA L1 ✔ (2023), EFAiF ✔ (exp. Oct 2026), DBS ✔ (renew Sept 2026), FA Safeguarding Children refreshed online 2025-07-12.",
  aliases=["DBS", "safeguarding"], facets=["football", "credentials"])

# G26 answer style
D("g26a", "2024-05-04 20:50", "reply style", "How to answer",
  "Short answers; bullet points are fine. British English. Drug names: generic first, never only the brand.",
  aliases=["style", "tone"], facets=["preferences", "assistant"], atype="preference")
X("g26b", "2024-06-01 09:05",
  "Always give generic drug names first — brand in brackets only where it matters clinically (inhalers, insulins, modified-release).")

# ---- look-alike partners (not duplicates of anything) ----------------------

# L01 the other builder quote (g11a)
D("l01b", "2025-02-14 19:12", "Harlow quote", "Other builder quote",
  "Harlow & Sons quote for the extension: £74,500 inc VAT, 12 weeks, could start June 2025 — not going with them.",
  aliases=["Harlow & Sons"], facets=["extension", "money"], atype="event")

# L02 no. 45 dissented (g12b)
D("l02b", "2025-01-13 18:25", "no. 45 party wall", "Party wall: no. 45",
  "No. 45 (Mrs Joan Pike) dissented to the party wall notice — she's appointed a surveyor, Lewis Crane; Tom pays his fee, est. £950.",
  aliases=["Joan Pike", "Lewis Crane"], facets=["extension", "neighbours", "legal"], atype="event")

# L03 last year's tournament (g20a)
D("l03b", "2024-06-24 08:40", "Clifton Rockets tournament 2024", "Summer tournament 2024",
  "Clifton Rockets summer tournament 2024-06-23 at Filton Sports Ground: Hawks (then U10) finished 3rd in group A; entry £35.",
  aliases=["tournament"], facets=["football", "dates"], atype="event")

# L04 espresso cups (g22a)
D("l04b", "2024-11-17 16:00", "Oat Speckle espresso cup", "Espresso cups",
  "'Oat Speckle' espresso cup, 90 ml, £16 each or £45 for a set of 3. Same speckled buff clay, cone 6.",
  aliases=["espresso cup"], facets=["etsy", "products", "money"])

# L05 Zosia's hay fever (g19a)
D("l05b", "2025-05-12 07:36", "Zosia hay fever", "Zosia's hay fever",
  "Zosia: hay fever too — loratadine 5 mg (children's syrup, 5 ml) once daily, only on high-pollen days.",
  aliases=["loratadine"], facets=["health", "family"], atype="person")

# L06 birthday vs anniversary
D("l06a", "2024-07-25 21:30", "Hannah birthday", "Hannah's birthday",
  "Hannah's birthday: 2 August (born 1984). Likes Ottolenghi's ROVI — book ahead.",
  aliases=["birthday"], facets=["family", "dates"], atype="person")
D("l06b", "2024-08-10 10:15", "wedding anniversary", "Wedding anniversary",
  "Wedding anniversary: 22 August (married 2011 at St Bonaventure's, Bishopston).",
  aliases=["anniversary"], facets=["family", "dates"], atype="event")

# L07 bisque vs glaze firing (g08a)
D("l07b", "2024-06-19 22:09", "bisque firing", "Bisque firings at the studio",
  "Bisque firing: cone 04 (~1060 °C). Book a shelf on the studio Google Sheet; £8 per shelf, runs Mondays, unload after 24h.",
  aliases=["bisque kiln", "cone 04"], facets=["ceramics", "kiln", "money"])

# L08 the U13 training (g03a)
D("l08b", "2024-09-18 19:05", "U13 training", "U13 training",
  "Hawks U13 Girls train Wednesdays 18:30–19:45 on the Horfield Common 3G, pitch 1 — coach Dean Roper; Tom covers if Dean's away.",
  aliases=["U13 girls", "Dean Roper"], facets=["football", "schedule"], atype="event")

# L09 two on-call weeks
D("l09a", "2025-03-03 12:10", "on-call march", "On-call w/c 10 March",
  "Tom's pharmacy on-call: w/c 2025-03-10. Swap with Ellie Nash agreed (she covers Sat 15th).",
  aliases=["Ellie Nash"], facets=["work", "schedule"], atype="event")
D("l09b", "2025-04-25 12:20", "on-call may", "On-call w/c 5 May",
  "Tom's pharmacy on-call: w/c 2025-05-05 (includes the bank holiday Monday). Swap with Ellie Nash NOT agreed — she's away.",
  aliases=["Ellie Nash"], facets=["work", "schedule"], atype="event")

# L10 the neighbours' application (g09a)
D("l10b", "2024-11-06 19:40", "neighbour loft application", "Next door's planning application",
  "Next door at no. 41 (the Delaneys) applied for a rear loft dormer, ref 24/05102/H, submitted 2024-11-04. Tom isn't objecting.",
  aliases=["24/05102/H", "loft dormer"], facets=["neighbours", "planning"], atype="event")

# L11 international shipping (g06b)
D("l11b", "2024-11-02 10:30", "international shipping", "International orders",
  "International orders: Royal Mail International Tracked only — £18.50 flat per mug to the EU; no shipping to the US (too many breakages, stopped Oct 2024).",
  aliases=["EU shipping"], facets=["etsy", "shipping"])

# L12 mother-in-law's number (g17b)
D("l12b", "2025-06-15 14:30", "Pauline Barnes", "Mother-in-law",
  "Hannah's mum Pauline Barnes, Weston-super-Mare — landline 01632 960 447; happy to text.",
  aliases=["Pauline", "mother-in-law"], facets=["family", "contacts"], atype="person")

# L13 RPS membership (g01a)
D("l13b", "2024-09-30 20:05", "RPS membership", "RPS membership",
  "Royal Pharmaceutical Society (RPS) member no. 0805519. Renews every 1 January; £235 a year by direct debit.",
  aliases=["RPS"], facets=["work", "credentials", "money"])

# L14 two cars
D("l14a", "2024-06-30 12:00", "Kia Niro", "Family car",
  "Car: 2019 Kia Niro PHEV, Steel Grey, reg WU19 KXA — ~30 miles electric; charges overnight on Octopus Intelligent.",
  aliases=["Niro", "car"], facets=["vehicle"], slots=["model", "registration"], atype="vehicle")
D("l14b", "2024-10-03 18:50", "Hannah car", "Hannah's car",
  "Hannah drives a 2015 VW Polo, blue, reg WR15 BKX — petrol; MOT due in November.",
  aliases=["Polo"], facets=["vehicle", "family"], atype="vehicle")

# L15 home vs away kit
D("l15a", "2024-08-31 10:05", "Hawks home kit", "Home kit",
  "Hawks home kit: navy shirts, white shorts, sky-blue socks. Sponsor: Gloucester Road Cycles.",
  aliases=["home kit"], facets=["football"])
D("l15b", "2024-08-31 10:07", "Hawks away kit", "Away kit",
  "Hawks away kit: sky-blue shirts, navy shorts, white socks. Same sponsor.",
  aliases=["away kit"], facets=["football"])

# L16 lent vs borrowed
D("l16a", "2025-05-10 18:00", "lent gazebo", "Lent to Dean",
  "Lent Dean Roper (U13 coach) the club gazebo + 20 cones for the fun day on 2025-05-18 — he brings them back on the 19th.",
  aliases=["gazebo"], facets=["football", "loans"], atype="event")
D("l16b", "2025-05-12 19:15", "borrowed goals", "Borrowed from Dean",
  "Borrowed 2 pop-up goals (8×4 ft) from Dean Roper for the fun day on 2025-05-18 — return them to him on the 19th.",
  aliases=["pop-up goals"], facets=["football", "loans"], atype="event")

# ---- singletons ------------------------------------------------------------

D("s01", "2024-05-04 20:40", "Tomasz", "Who the user is",
  "User is Tomasz Kowalczyk — 'Tom' to everyone (only his mum says Tomek). Born 1982 in Swindon to Polish parents; bilingual Polish/English.",
  aliases=["Tomasz Kowalczyk", "Tom", "user"], facets=["identity"], slots=["name"], atype="person")
D("s02", "2024-05-04 20:55", "home", "Home",
  "Home: 1930s semi, no. 43 in Horfield, Bristol BS7, bought 2015. Attached to no. 41; no. 45 on the other side.",
  aliases=["Horfield", "BS7"], facets=["home", "identity"], atype="place")
D("s03", "2024-08-27 18:45", "kit container code", "Kit container code",
  "Hawks kit container combination: 7720.",
  aliases=["container"], facets=["football", "security"], sensitivity="secret", recall="never")
D("s04", "2024-07-07 15:30", "Bedminster Blue glaze", "Go-to glaze",
  "Go-to glaze 'Bedminster Blue': cone 6 base + 2% cobalt carbonate + 4% rutile; 3-second dip, wipe 5 mm off the foot.",
  aliases=["Bedminster Blue"], facets=["ceramics", "recipes"])
D("s05", "2024-05-25 09:40", "Bigos", "Bigos the dog",
  "Dog: Bigos, beagle, born 2018. Walker: Paws on Gloucester Rd, Thursdays, £14 a walk."
  + MERGE_SEP.format("2025-02-10")
  + "Bigos had a dental on 2025-02-06 (3 extractions) — soft food for a week.",
  aliases=["dog", "beagle"], facets=["pets", "family"], atype="pet",
  updated="2025-02-10 18:20", semantics="append-document")
D("s06", "2024-07-10 13:15", "MicroGuide", "Antimicrobial guidelines app",
  "Trust antimicrobial guidelines live in the MicroGuide app (NBT edition); Tom is content editor — 3-yearly full review, next one 2026.",
  aliases=["guidelines"], facets=["work", "tech"])
D("s07", "2024-09-26 21:00", "UKCPA poster", "Poster accepted",
  "Poster 'IV-to-oral switch at NBT: 12-month audit' accepted for the UKCPA Autumn Symposium, Birmingham, 2024-11-15; A0 portrait.",
  aliases=["poster", "UKCPA"], facets=["work", "cpd", "dates"], atype="event")
D("s08", "2024-05-05 21:20", "quiet hours", "Quiet hours",
  "No notifications 21:30–07:00 on weekdays; keep Saturday mornings clear (match day).",
  aliases=["do not disturb"], facets=["preferences", "assistant"], atype="preference")
D("s09", "2024-10-20 16:30", "product photos", "Etsy product photos",
  "Etsy product photos: lightbox + Pixel 8, daylight only, 2000×2000 px square; first photo always on the oat linen.",
  aliases=["photos"], facets=["etsy", "photography"])
D("s10", "2025-03-30 20:45", "Poland trip 2025", "Summer trip to Kraków",
  "Family trip to Kraków 2025-08-09 → 2025-08-23, Ryanair BRS–KRK; staying at Łukasz's. Etsy shop on holiday mode for those dates.",
  aliases=["Kraków", "holiday"], facets=["travel", "family"], atype="event")
D("s11", "2025-03-20 12:30", "building control", "Building control",
  "Building control via Bristol City Council (full plans), ref BC/25/00312; inspector Sam Oduya — call 48h before each stage.",
  aliases=["BC/25/00312", "inspector"], facets=["extension", "planning"])
D("s12", "2025-01-28 20:15", "structural engineer", "Structural engineer",
  "Structural engineer: Kasia Nowicka (KN Structures). Calcs for the steel over the opening issued 2025-01-28: UB 254×146×37.",
  aliases=["Kasia Nowicka", "steel beam"], facets=["extension", "contacts"], atype="person")
D("s13", "2025-04-15 19:00", "Howdens", "Kitchen design appointment",
  "Kitchen design appointment at Howdens Avonmouth, Sat 2025-05-03 10:00 — bring the rev C drawings.",
  aliases=["kitchen units"], facets=["extension", "dates"], atype="event")
X("s14", "2025-04-06 11:40",
  "During the build the kitchen moves to the dining room: microwave, kettle, 2-ring induction hob; washing up in the utility sink.")
D("s15", "2024-09-15 10:10", "parkrun", "Parkrun",
  "Parkrun at Blaise Castle when there's no early kick-off; PB 23:41 on 2024-09-14.",
  aliases=["running"], facets=["health", "routine"])
D("s16", "2025-01-12 21:50", "reading", "Current reading",
  "Reading 'The Drug Hunters' by Donald R. Kirsch — about halfway.",
  aliases=["book"], facets=["reading"])
D("s17", "2024-09-10 19:20", "Polish school", "Zosia's Polish school",
  "Zosia goes to Polish school on Sundays 10:00–13:00 at St Bonaventure's parish hall; term fee £180.",
  aliases=["Polish Sunday school"], facets=["family", "school"], atype="organisation")
D("s18", "2024-06-15 22:00", "Etsy fees", "Etsy fees",
  "Etsy fees: 6.5% transaction + 4% + 20p payment processing; $0.20 per listing, auto-renewing.",
  aliases=["fees"], facets=["etsy", "money"])
D("s19", "2025-01-05 18:40", "Instagram", "Pottery Instagram",
  "Pottery Instagram is @ashdownclay (~2.3k followers); kiln-opening posts on Sunday evenings.",
  aliases=["@ashdownclay"], facets=["etsy", "marketing"])
D("s20", "2024-12-08 09:30", "Christmas market", "Makers' market stall",
  "Stall at the Tobacco Factory Makers' Christmas Market, Sat 2024-12-07 10:00–16:00, pitch £45, 6 ft table; took £612.",
  aliases=["market stall"], facets=["ceramics", "money", "dates"], atype="event")
D("s21", "2024-08-05 12:50", "dentist", "Dentist",
  "Family dentist: Gloucester Road Dental, 0117 496 0731; Tom's check-ups every 9 months, next Feb 2025.",
  aliases=["dental"], facets=["health", "contacts"], atype="place")
D("s22", "2024-10-10 17:45", "MPharm teaching", "Guest lectures",
  "Guest lectures for the University of Bath MPharm (year 4 infection module): 2 sessions every November, £150 each.",
  aliases=["University of Bath", "lectures"], facets=["work", "teaching"])
X("s23", "2024-06-12 20:05",
  "Bins: black bin fortnightly on Wednesdays, recycling boxes weekly; garden waste subscription renews in March.")
X("s24", "2024-11-30 10:25",
  "Spare house key is with the Delaneys at 41 (and one in the key safe by the side gate).")
D("s25", "2024-06-03 07:55", "commute", "Commute",
  "Commute: bikes to Southmead, 3.8 miles, about 18 minutes — drives the Niro on on-call weeks.",
  aliases=["cycling"], facets=["work", "routine", "transport"])
D("s26", "2025-02-01 15:10", "custom orders", "Custom order rules",
  "Custom orders: 4-week lead time, 50% deposit up front, no hand-painted names.",
  aliases=["commissions"], facets=["etsy", "policy"])
X("s27", "2025-03-15 16:50",
  "Shed has to be moved before the build — Brunel need the side access clear by 7 Apr 2025.")

# hidden rows the daemon leaves behind (not part of any duplicate group)
D("h01", "2025-02-26 21:15", "builder site visit", "Builder site visit",
  "Site visit with Gareth (Brunel Build) Thu 2025-03-06 10:00 to go over the rev C drawings.",
  aliases=["site visit"], facets=["extension"], atype="event", updated="2025-03-05 20:10",
  semantics="tombstone", recall="never")
D("h02", "2025-06-21 22:10", "compaction-boundary", "compaction-boundary",
  "Conversation compacted: discussed the tournament team sheet, gazebo and first-aid kit, and Etsy stock for July.",
  path="none", klass="evidence", recall="manual", semantics="merge-document",
  atype="event", conf=0.6)
D("h03", "2024-06-04 21:30", "turn-complete", "turn-complete",
  "User asked what to charge for a custom set of 6 mugs; assistant suggested cost-plus pricing and a 4-week lead time.",
  path="none", klass="trace", recall="never", semantics="conversation_trace",
  atype="event", conf=0.5)

# Labels: outside2_groups.py
from outside2_groups import DUP_GROUPS, LOOKALIKES  # noqa: E402,F401 (read by the builder)

ABOUT = (
    "A second outside Netclaw memory store written blind to memgui's code, from the Netclaw spec only "
    "(/work/shared/spec/netclaw-memory.md): schema, id shapes, wire values and FTS5 tables as the "
    "daemon writes them (built by outside_store.py --notes outside2_notes). Persona: Tom (Tomasz) Kowalczyk, "
    "lead antimicrobial pharmacist at Southmead Hospital, Bristol; head coach of the Horfield Hawks girls' "
    "football team; sells stoneware on Etsy as AshdownClay; building a rear kitchen extension; "
    "May 2024 - August 2025. duplicate_groups: notes a person would merge into one (paraphrases, subsets, "
    "complementary details of the same thing, most members carrying a fact no other member has, some a "
    "superseded value such as an old fee; each under a different anchor, as near-duplicates that slipped "
    "past curation would be). lookalike_pairs: notes that read alike but state different facts and must "
    "stay separate; some pair a duplicate-group member with an outside note. Also present and in no label: "
    "singletons, one tombstoned document, one compaction-boundary (manual) and one conversation trace "
    "(never) document, one secret document, two documents with `_[merged YYYY-MM-DD]_` append history, "
    "one tombstoned anchor left by a consolidation, evidence records, checkpoints. No embeddings "
    "(Memory.Embeddings disabled in this store's era)."
)

# ---------------------------------------------------------------------------
# Records, checkpoints, daemon tables
# ---------------------------------------------------------------------------

RECORDS = [
    ("r01", "2024-10-12 12:40", "Hawks results", "match-result",
     dict(SubjectKind="organisation", SubjectValue="Horfield Hawks U11G",
          Predicate="result v Bradley Stoke Blues", ObjectValue="W 4-2",
          Rationale="user reported the Saturday league score")),
    ("r02", "2024-12-01 19:10", "AshdownClay orders", "sales-count",
     dict(SubjectKind="organisation", SubjectValue="AshdownClay", Predicate="orders in November 2024",
          ObjectValue="37", Rationale="user checked Etsy stats after the Black Friday weekend")),
    ("r03", "2025-02-09 11:25", "facing brick prices", "price-check",
     dict(SubjectKind="place", SubjectValue="Jewson Filton", Predicate="matching red facing brick per 1000",
          ObjectValue="£1,150", Rationale="user priced bricks to meet the planning condition")),
    ("r04", "2025-03-01 21:05", "glaze kiln log", "kiln-log",
     dict(SubjectKind="project", SubjectValue="AshdownClay", Predicate="mugs out of the glaze firing",
          ObjectValue="22 (2 cracked)", Rationale="user unloaded the Saturday glaze kiln")),
    ("r05", "2025-03-15 10:05", "parkrun times", "run-log",
     dict(SubjectKind="person", SubjectValue="Tom", Predicate="Blaise Castle parkrun time",
          ObjectValue="24:05", Rationale="user logged his parkrun")),
]

CHECKPOINTS = [
    ("c01", "2025-06-21 19:49", "observed-memory-proposals", 50),
    ("c02", "2025-08-30 09:59", "observed-memory-proposals", 50),
    ("c03", "2025-06-15 14:20", "explicit-memory-request", 100),
]

# What the user said in the explicit-memory-request checkpoint (c03); the extractor wrote g17b from it.
CHECKPOINT_CONTENT = DOCS[[d["key"] for d in DOCS].index("g17b")]["body"]
