"""A labelled store for "notes of one anchor found together" (issue 38, item 7), seeded by `factories.seed_anchor_store`.

GROUPS: anchors holding 2–4 complementary notes, each a different detail of one thing, sharing few words (a trip's
flights, hotel and purpose; a therapist and the practice's address; an event's dates and venue). A person reviewing
the store wants each group nominated together. Several groups have a look-alike twin under another anchor (another
trip, another clinic, another festival): LOOKALIKES pairs notes that read alike but state different facts, and a
cluster holding both is incoherent. BIG is one anchor holding 40 notes on many subjects (a person): it must not
become one cluster."""
from __future__ import annotations

GROUPS: dict[str, tuple[tuple[str, str], ...]] = {
    "lisbon-trip-2025": (
        ("Lisbon flights", "TAP TP1351 leaves Heathrow 07:40 on 12 May; return TP1356 on 16 May."),
        ("Lisbon hotel", "Booked Casa do Príncipe, Rua do Século 12, four nights with breakfast."),
        ("Why Lisbon", "Speaking at a Web Summit side event and meeting Inês about the translation contract."),
    ),
    "porto-trip-2024": (
        ("Porto flights", "TAP TP1331 leaves Heathrow 06:55 on 3 October; return TP1336 on 6 October."),
        ("Porto hotel", "Booked Hotel Infante Sagres near Aliados, three nights with breakfast."),
    ),
    "therapist": (
        ("Therapist", "Dr. Hannah Moreau, CBT, fortnightly on Thursdays at 17:00."),
        ("Therapy practice address", "Clarendon Wellbeing, 14 Clarendon Road, Leeds LS2 9NN, second floor, buzzer 3."),
        ("Therapy fees", "Each session costs £70, paid by bank transfer the same evening."),
    ),
    "physio": (
        ("Physio", "Sam Patel treats the left shoulder, weekly on Mondays at 08:30."),
        ("Physio clinic address", "Kirkstall Physio, Unit 5, Kirkstall Road, Leeds LS4 2AZ, ground floor."),
    ),
    "jazz-festival-2025": (
        ("Jazz festival dates", "Runs Friday 18 to Sunday 20 July 2025; gates open 14:00 each day."),
        ("Jazz festival venue", "Roundhay Park, main stage by the Mansion; park and ride from Elland Road."),
        ("Jazz festival tickets", "Two weekend passes, order JZ-44812; wristbands arrive by post in June."),
    ),
    "folk-festival-2025": (
        ("Folk festival dates", "Runs Friday 8 to Sunday 10 August 2025; gates open 12:00 each day."),
        ("Folk festival venue", "Cropredy, Oxfordshire; camping field B, pitch 212."),
    ),
    "car-insurance": (
        ("Car insurance", "Admiral policy AD-7731-22 for the Golf, renews 1 March."),
        ("Car insurance excess", "Excess is £250 compulsory plus £100 voluntary."),
        ("Named drivers", "Me and Tom; six years of no-claims bonus, protected."),
    ),
    "home-insurance": (
        ("Home insurance", "Aviva policy HM-55102 for the flat, renews 14 September."),
        ("Contents cover", "Up to £40,000; both bikes listed separately as high-value items."),
    ),
    "kitchen-extension": (
        ("Extension builder", "Brunel Build chosen: £68,400 inc VAT, 14 weeks on site."),
        ("Planning permission", "Granted 2 April, council reference 24/01133/HH."),
        ("Architect", "Ruth Okafor at Studio Okafor; drawings are at revision C."),
        ("Party wall", "No. 41 consented in writing, so no surveyor was needed."),
    ),
    "jakob-wedding": (
        ("Jakob's wedding", "Jakob and Lena marry on Saturday 6 June 2026."),
        ("Wedding venue", "Ceremony at St Mary's, Whitby; reception at Abbey Wharf."),
        ("Wedding RSVP", "Black tie; reply to Lena by 1 March with dietary needs."),
    ),
    "aisha-wedding": (
        ("Aisha's wedding", "Cousin Aisha marries Daniel on Saturday 19 September 2026."),
        ("Aisha's wedding venue", "Ceremony and dinner at Leeds Town Hall, Victoria Hall."),
    ),
    "passport-renewal": (
        ("Passport", "Current passport expires in March 2026; renewal sent off 12 January."),
        ("Passport application", "Reference PEX-0049231; fee £88.50 paid by card."),
        ("Passport photo", "Taken at Boots; the digital photo code is 4HJ7-22KQ."),
    ),
    "japan-trip-2026": (
        ("Japan flights", "JL44 Heathrow to Haneda on 20 March, back on 4 April."),
        ("Kyoto ryokan", "Hiiragiya in Kyoto, 25–28 March, half board."),
        ("Rail pass", "14-day JR Pass ordered; exchange order number 88231."),
    ),
    "dentist": (
        ("Dentist", "Dr. Ortiz at Smile Studio; check-ups every six months."),
        ("Dental surgery address", "Smile Studio is above the pharmacy at 22 Otley Road, Headingley."),
    ),
    "pimenta-vet": (
        ("Pimenta's vet", "Dr. Keane at Meanwood Vets looks after the cat."),
        ("Vet contact", "3 Green Road; emergency line 0113 496 0301."),
        ("Pimenta's diet", "Renal diet from Royal Canin, 40 g twice a day."),
    ),
    "allotment": (
        ("Allotment", "Plot 14B at Potternewton; rent £42 a year, due in October."),
        ("Allotment access", "Gate code 2580; the water troughs are off from November to March."),
        ("Allotment crops", "Garlic, broad beans and two rows of Charlotte potatoes this year."),
    ),
    "road-bike": (
        ("Road bike", "Genesis Croix de Fer 20, size 56, bought 2022."),
        ("Bike registration", "Frame number GN-2231-887 is on BikeRegister."),
        ("Bike service", "Chain replaced at 4,000 km; next service at Cycle Republic in May."),
    ),
    "book-club": (
        ("Book club", "Meets the last Tuesday of each month at 19:30."),
        ("Book club venue", "Back room of the Brudenell Social Club; Priya hosts."),
    ),
    "broadband": (
        ("Broadband", "Zen fibre 500 Mbps; contract ends November 2026."),
        ("Router", "Admin page at 192.168.1.1; support PIN 7731."),
    ),
    "mortgage": (
        ("Mortgage", "Nationwide, fixed at 4.19% until August 2027."),
        ("Mortgage payment", "£1,143 leaves the joint account on the 1st of each month."),
        ("Mortgage broker", "Clara at Mortgage Hub; remortgage reminder set for May 2027."),
    ),
    "pycon-talk": (
        ("PyCon UK talk", "'Caching at the edge' accepted for a 25-minute slot."),
        ("PyCon UK", "19–22 September at Manchester Central."),
        ("Talk deadlines", "Slides due to the organisers by 5 September; speaker dinner on the 20th."),
    ),
    "europython-talk": (
        ("EuroPython talk", "'Caching at the edge' given as a 30-minute talk in Prague."),
        ("EuroPython recording", "The video went up on YouTube in August; 2,300 views so far."),
    ),
    "gym": (
        ("Gym", "PureGym Headingley, £24.99 a month, one month's notice to cancel."),
        ("Training plan", "Monday, Wednesday and Friday at 07:00: push, pull, legs."),
    ),
}

# Notes that read alike but state different facts, under different anchors: (anchor, index), (anchor, index).
LOOKALIKES: tuple[tuple[tuple[str, int], tuple[str, int]], ...] = (
    (("lisbon-trip-2025", 0), ("porto-trip-2024", 0)),
    (("lisbon-trip-2025", 1), ("porto-trip-2024", 1)),
    (("therapist", 0), ("physio", 0)),
    (("therapist", 1), ("physio", 1)),
    (("jazz-festival-2025", 0), ("folk-festival-2025", 0)),
    (("jazz-festival-2025", 1), ("folk-festival-2025", 1)),
    (("car-insurance", 0), ("home-insurance", 0)),
    (("jakob-wedding", 0), ("aisha-wedding", 0)),
    (("jakob-wedding", 1), ("aisha-wedding", 1)),
    (("pycon-talk", 0), ("europython-talk", 0)),
    (("dentist", 1), ("therapist", 1)),
)

BIG_ANCHOR = "mira"
BIG: tuple[tuple[str, str], ...] = tuple(
    (f"Mira {i:02d}", text) for i, text in enumerate((
        "Mira's birthday is 14 February.",
        "Mira works as a structural engineer at Arup.",
        "Mira is allergic to penicillin.",
        "Mira's partner is called Joel.",
        "Mira prefers oat milk in her coffee.",
        "Mira runs the Leeds half marathon most years.",
        "Mira's phone number is 07700 900412.",
        "Mira grew up in Gdańsk.",
        "Mira speaks Polish, English and some Spanish.",
        "Mira's daughter Zosia was born in 2019.",
        "Zosia goes to Bankside Primary.",
        "Mira drives a blue Skoda Octavia estate.",
        "Mira is vegetarian but eats fish.",
        "Mira plays viola in a community orchestra.",
        "The orchestra rehearses on Wednesdays in Chapel Allerton.",
        "Mira's favourite author is Olga Tokarczuk.",
        "Mira lent me her tile cutter in June.",
        "Mira's work address is 8 Wellington Place.",
        "Mira hates surprise parties.",
        "Mira's mother lives in Sopot.",
        "Mira is afraid of flying and prefers trains.",
        "Mira's email is mira.nowak@example.com.",
        "Mira has a season ticket at Headingley for the cricket.",
        "Mira got chartered status in 2021.",
        "Mira recommended the plumber Dave Hirst.",
        "Mira's dog is a greyhound called Biscuit.",
        "Biscuit needs walking at lunchtime when Mira is in the office.",
        "Mira is learning to climb at the Depot.",
        "Mira and Joel got married in 2017 in Gdynia.",
        "Mira's shoe size is 39, useful for the hiking boots gift.",
        "Mira reads the Guardian on Saturdays.",
        "Mira's brother Piotr lives in Toronto.",
        "Mira takes two weeks off every August for Poland.",
        "Mira likes her tea black.",
        "Mira's bike is a grey Brompton.",
        "Mira volunteers at the food bank on Saturdays.",
        "Mira's GP is at Chapel Allerton surgery.",
        "Mira once lived in Valencia for a year.",
        "Mira's favourite restaurant is Bundobust.",
        "Mira is godmother to Tom's son.",
    ))
)
