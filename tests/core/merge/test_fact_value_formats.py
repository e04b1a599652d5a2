"""One value in other formats is the same fact; the same format with another value is not.

Written for these tests (not from the labelled corpus): each pair of a kept and a changed restatement shows that the
lens equates the format and still sees the value."""
import pytest

from fact_twins import assert_kept_and_changed
from memgui.core.merge.strict import check_strict

# (source, the body restating it, the body changing one value of it)
FORMATS = [
    # a unit written in two words (pint's `nautical_mile`, `square metre`), and charts' `NM`
    ("Mooring is 12 NM from the harbour mouth.", "The mooring lies twelve nautical miles out from the harbour mouth.",
     "The mooring lies twelve miles out from the harbour mouth."),
    ("The studio is 35 m² with a loft.", "The studio has 35 square metres plus a loft.",
     "The studio has 35 square feet plus a loft."),
    ("Tank holds 2 cubic metres of rainwater.", "The tank takes 2 m³ of rainwater.",
     "The tank takes 3 m³ of rainwater."),
    # how often, with the period abbreviated after its count
    ("The beacon pings every 30 s.", "The beacon sends a ping every thirty seconds.",
     "The beacon sends a ping every thirty minutes."),
    ("Paracetamol every 6 h as needed.", "Paracetamol as needed, every six hours.",
     "Paracetamol as needed, every four hours."),
    # a 24-hour clock in four digits with its zone or `hrs`
    ("Handover call at 1430 hrs daily.", "The handover call is every day at 14:30.",
     "The handover call is every day at 16:30."),
    ("Net opens 1900 UTC on Thursdays.", "On Thursdays the net opens at 19:00 UTC.",
     "On Thursdays the net opens at 20:00 UTC."),
    # an amount and a half, hyphenated
    ("The loop is 2.5 km of towpath.", "The loop is two-and-a-half kilometres of towpath.",
     "The loop is three-and-a-half kilometres of towpath."),
    ("Rest the dough 1.5 hours.", "Rest the dough for an hour-and-a-half.", "Rest the dough for an hour."),
    # a unit left to the amount the number is coordinated with
    ("Tickets: adults €12, children €6.", "Tickets cost twelve euros for adults and six for children.",
     "Tickets cost twelve euros for adults and eight for children."),
    ("Cough syrup: adults 10 ml, children 5 ml.", "Cough syrup: 10 ml for adults and 5 for children.",
     "Cough syrup: 10 ml for adults and 7 for children."),
    # a clock hour said plainly where the sentence says the half of the day
    ("Choir practice Tuesdays 7–9pm.", "Choir practice runs on Tuesday evenings from seven to nine.",
     "Choir practice runs on Tuesday evenings from eight to nine."),
    ("Bakery opens 6am on Saturdays.", "On Saturday mornings the bakery opens at six.",
     "On Saturday mornings the bakery opens at seven."),
    # `min` after a count is its unit, not a minimum of what follows
    ("Stretch 10 min every morning.", "Stretch for ten minutes each morning.", "Stretch for ten minutes each evening."),
    # a day and a time written together are one moment: the deadline bounds both
    ("Send the rota by Fri 5pm.", "The rota goes out by 5pm on Friday.", "The rota goes out by 5pm on Thursday."),
    # a comparative before `than` and an amount, or after `or`, is the amount's bound
    ("Trailer under 7 m only.", "Only trailers shorter than 7 metres.", "Only trailers longer than 7 metres."),
    ("Store the vaccine at ≤ 8°C.", "Keep the vaccine at 8 °C or cooler.", "Keep the vaccine at 8 °C or warmer."),
    # a share of a whole in words
    ("Sold 40% of the lambs at market.", "Two-fifths of the lambs were sold at market.",
     "Three-fifths of the lambs were sold at market."),
    ("Gave 10% of the bonus to charity.", "A tenth of the bonus went to charity.", "A fifth of the bonus went to charity."),
    # two numbers read apart: a reading, a score
    ("Dad's BP this morning 142/88.", "Dad's blood pressure this morning was 142 over 88.",
     "Dad's blood pressure this morning was 142 over 90."),
    # `one` before a unit counts it; a scale word after digits scales them
    ("Locker hire: $1 a day.", "Locker hire is one dollar per day.", "Locker hire is two dollars per day."),
    ("Grant awarded: $3M over two years.", "The grant is $3 million over two years.",
     "The grant is $4 million over two years."),
    # a moment labelled as a deadline is its latest; `by the 5th` bounds a day of the month
    ("Deadline for the grant report: Thu 17:00.", "The deadline for the grant report is 5pm on Thursday.",
     "The grant report is due by 5pm on Tuesday."),
    ("Pay the cleaner by the 3rd of each month.", "The cleaner is paid no later than the 3rd of every month.",
     "The cleaner is paid no later than the 8th of every month."),
    # a number sign before a code
    ("Parcel tracking #RX55120 with DPD.", "DPD is carrying the parcel, tracking number RX55120.",
     "DPD is carrying the parcel, tracking number RX55210."),
    # a time taken written as a clock
    ("Berlin marathon 2024 time: 3:41:07.", "My time in the 2024 Berlin marathon was 3 hours 41 minutes 7 seconds.",
     "My time in the 2024 Berlin marathon was 3 hours 14 minutes 7 seconds."),
    # the other end of a range of days shares the date's month
    ("Cottage booked Aug 3–9.", "The cottage is ours from the 3rd to the 9th of August.",
     "The cottage is ours from the 3rd to the 7th of August."),
    # `in advance` = `ahead`; `a pair of` = two
    ("Order the cake 48 h ahead.", "The cake has to be ordered two days in advance.",
     "The cake has to be ordered three days in advance."),
    ("Pack two spare inner tubes.", "Pack a pair of spare inner tubes.", "Pack three spare inner tubes."),
    # a country or language code and its name (ISO tables, pycountry)
    ("Shipping to DE takes 5 days.", "Shipping to Germany takes five days.", "Shipping to France takes five days."),
    ("Subtitles: EN/FR, burned in.", "The subtitles are burned in, in English and French.",
     "The subtitles are burned in, in English and German."),
    # a negation turns a bound round, and reaches the second of two joined by `or`
    ("Fleet: min 2 vans, max 6 vans on the road.", "The fleet never has fewer than two or more than six vans on the road.",
     "The fleet never has fewer than two or more than eight vans on the road."),
    ("Hot tub: max 40 °C.", "The hot tub must not go above 40 °C.", "The hot tub must not go below 40 °C."),
    # a rate said as an amount and the length of what it buys
    ("Court hire costs £24 per half hour.", "A 30-minute court hire costs £24.", "A 45-minute court hire costs £24."),
    # a ratio written with colons or in parts; an even split; the whole of something
    ("Grout: 1 part cement to 3 parts sand.", "Grout mix (cement:sand) is 1:3.", "Grout mix (cement:sand) is 1:2."),
    ("Rent split 50/50 with Sam.", "Sam and I share the rent equally.", "Sam pays a third of the rent."),
    ("Gas bill 100% mine.", "The gas bill is entirely mine.", "The gas bill is half mine."),
    # intervals, a range opened by `one`, a time before midnight, three quarters of an hour
    ("Tram every 8 min until 20:00.", "Until 8pm trams run at eight-minute intervals.",
     "Until 8pm trams run at ten-minute intervals."),
    ("Seats 1–12 are reserved.", "Seats one to twelve are reserved.", "Seats one to ten are reserved."),
    ("Bar closes 23:45.", "The bar closes at a quarter to midnight.", "The bar closes at a quarter past midnight."),
    ("Rest 45 min after the long run.", "After the long run, rest for three-quarters of an hour.",
     "After the long run, rest for half an hour."),
    # a size in inches after `×`; a unit carried along a list of amounts
    ("Rug 60×90 in, wool.", "A wool rug, 60 by 90 inches.", "A wool rug, 60 by 80 inches."),
    ("Raffle prizes: £100, £40 and £10.", "The raffle prizes are a hundred pounds, forty and ten.",
     "The raffle prizes are a hundred pounds, forty and twenty."),
    # `v` before a version, a code in the plural, a code between a bound and its amount
    ("Plugin pinned at v3.2.1.", "The plugin is pinned to version 3.2.1.", "The plugin is pinned to version 3.2.2."),
    ("Rack: 4× H100 GPUs.", "The rack holds four H100s as its GPUs.", "The rack holds four A100s as its GPUs."),
    ("Logger samples the DHT22 every 10 s over UART2.", "The logger reads the DHT22 over UART2 six times a minute.",
     "The logger reads the DHT22 over UART2 four times a minute."),
    # a moment before or after a time is its bound
    ("No deploys after 16:00 on Fridays.", "No deploys later than 4pm on a Friday.",
     "No deploys later than 5pm on a Friday."),
    # `at the latest` after a time; a comparative of loudness; an age group in words; pence per mile; `of month`
    ("Music stops 23:30 at the latest.", "The music stops by half past eleven at night.",
     "The music stops by midnight."),
    ("Earplugs at any gig over 95 dB.", "Earplugs go in at any gig louder than 95 dB.",
     "Earplugs go in at any gig quieter than 95 dB."),
    ("Under-12s swim free.", "Swimming is free for under-twelves.", "Swimming is free for under-tens."),
    ("Mileage: 45p/mile after the first 10.", "Mileage is paid at 45p a mile after the first ten.",
     "Mileage is paid at 40p a mile after the first ten."),
    ("Book group: first Mon of month.", "The book group meets on the first Monday of every month.",
     "The book group meets on the first Tuesday of every month."),
    # a price of nothing said as not paying
    ("Museum: adults £8, under-5s free.", "Museum entry is £8 for adults; under-5s don't pay.",
     "Museum entry is £8 for adults; under-5s pay £2."),
    # a bare clock time of the afternoon's first hours, or of a note that writes the evening elsewhere, is the
    # 24-hour clock's afternoon time
    ("School run: pick up Ava at 3:15.", "Ava is picked up from school at 15:15.", "Ava is picked up from school at 16:15."),
    ("Gig 8pm at the Crown; get-in 5:30.", "The gig at the Crown starts at 20:00, with get-in at 17:30.",
     "The gig at the Crown starts at 20:00, with get-in at 18:30."),
    # a number after a noun of a sequence counts in order
    ("Kit handed out on day 2 of camp.", "Kit is handed out on the second day of camp.",
     "Kit is handed out on the third day of camp."),
    ("Mock exams wk 4 of term.", "The mock exams are in the fourth week of term.",
     "The mock exams are in the fifth week of term."),
    ("Archive boxes are on the 3rd floor.", "The archive boxes are kept on floor three.",
     "The archive boxes are kept on floor four."),
    # `due` and `payable` say the same obligation
    ("Ground rent £250, due each January.", "Ground rent of £250 is payable each January.",
     "Ground rent of £250 is payable each February."),
    # `x` and `×` after a number are one sign; `2x` of a noun counts it
    ("Use the 1.4x teleconverter for birds.", "For birds, use the 1.4× teleconverter.",
     "For birds, use the 2× teleconverter."),
    ("Order 3x pallets of sand.", "Order three pallets of sand.", "Order four pallets of sand."),
    # a `k` after a number is the kilo of a unit the other note writes
    ("Stream at 320k for the archive copy.", "The archive copy streams at 320 kbps.",
     "The archive copy streams at 256 kbps."),
    ("Sunday long run: 15k easy.", "The Sunday long run is an easy 15 km.", "The Sunday long run is an easy 12 km."),
    # a URL in code marks or quotes ends where they start
    ("Status page is `https://status.kite.example/`.", "The status page lives at https://status.kite.example/.",
     "The status page lives at https://status.kite.example/v2/."),
    # a name between a deadline word and a date is no unit of it: `paid by BACS` says how, not when
    ("Deposit paid by Paypal 3 Mar.", "The deposit was paid through Paypal on 3 March.",
     "The deposit was paid through Paypal on 4 March."),
    # a limit named for an amount is its most (a minimum its least)
    ("Weight limit on the bridge: 7.5 t.", "Bridge: weight up to 7.5 tonnes.", "Bridge: weight up to 3.5 tonnes."),
    ("Minimum for free delivery: £40.", "Delivery is free on orders of at least £40.",
     "Delivery is free on orders of at most £40."),
    # `est.` before an amount is about it
    ("Est. 40 min drive to the venue.", "The drive to the venue is expected to take about forty minutes.",
     "The drive to the venue is expected to take about fifty minutes."),
    # `min` after an amount with its unit is its minimum
    ("Babysitting £12/hr, 3-hr min.", "Babysitting is £12 an hour, with a three-hour minimum.",
     "Babysitting is £12 an hour, with a four-hour minimum."),
    # `up to` after `from X` ends a range
    ("Node upgraded 18 → 20 last week.", "Last week Node went from 18 up to 20.", "Last week Node went from 18 up to 22."),
    # `one` before `per` or in a list of numbers is a number
    ("Visitor passes: max 1 per flat.", "Visitor passes: at most one per flat.", "Visitor passes: at most two per flat."),
    ("Pews 1–2 kept for family.", "Pews one and two are kept for the family.", "Pews one and three are kept for the family."),
    # a number after a date is not that month's day (`6 May two` is no `May 2`)
    ("Counted 3 deer by the gate, 9 June.", "On 9 June three deer were counted by the gate.",
     "On 9 June four deer were counted by the gate."),
    # one of a measure said with a word
    ("Brine: 60 g salt per 1 L water.", "For the brine, dissolve sixty grams of salt in every litre of water.",
     "For the brine, dissolve sixty grams of salt in every two litres of water."),
    # a number before a conjunction counts nothing there (`beds 1–3 until …` is no rate per `take`)
    ("Top up tanks 2–5 until each holds 40 L.", "Tanks two through five get topped up until each has forty litres.",
     "Tanks two through six get topped up until each has forty litres."),
    # a date with a two-digit year is this century's, day or month first
    ("MOT passed 04/09/25.", "The MOT was passed on 4 September 2025.", "The MOT was passed on 4 September 2024."),
    # at every hour of every day
    ("Helpline 24/7; office Mon–Fri.", "The helpline is staffed around the clock and the office is open Monday to Friday.",
     "The helpline is staffed until midnight and the office is open Monday to Friday."),
    # a unit left to a neighbour past a name between them
    ("Photos: iPhone 64 GB, iPad 32 GB.", "Photos: the iPad 32 gigabytes and the iPhone 64.",
     "Photos: the iPad 32 gigabytes and the iPhone 128."),
]


@pytest.mark.parametrize("source, kept, changed", FORMATS, ids=[f[1][:30] for f in FORMATS])
def test_a_value_in_another_format_is_kept_and_another_value_is_not(source, kept, changed):
    assert_kept_and_changed([source], kept, changed)


@pytest.mark.parametrize("source, body", [
    # the plain number counts the amounts beside it: no unit is lent to it
    ("Intervals: 5 × 4 min at threshold.", "Intervals: four 5-minute efforts at threshold."),
    # a part of the day that is not the clock's half
    ("Choir practice Tuesdays 7–9pm.", "Choir practice runs on Tuesday mornings from seven to nine."),
    # `below 1 bar` is a bound: the range's plain `1` does not answer for it
    ("Top up the boiler if it drops below 1 bar.", "Top up the boiler if it sits between 1 and 1.5 bar."),
    # two amounts traded: the source's plain `11` lends no unit to the body's plain `25`
    ("Elena has 25 days of leave and has used 11.", "Elena has 11 days of leave and has used 25."),
    # a code's digits and letters are no amount of a unit
    ("Policy 12-PL-4410 covers the van.", "Policy 12-PL-4411 covers the van."),
    # claimed for both what a source said of one
    ("Keep brand names in German; translate dosage units.", "Both brand names and dosage units stay in German."),
    # a day kept free is no price
    ("Wednesdays: childcare.", "Wednesdays are kept free for childcare and cost nothing."),
    # an amount per person is no amount in all
    ("Dinner is £45 per person.", "Dinner is £45."),
    # not paying for something is no price of nothing
    ("Entry £3, juniors £1.", "Entry is three pounds; juniors don't pay."),
    # a bare morning time is not the evening's in a note that says nothing of the afternoon
    ("Dentist at 9:40 on Friday.", "The dentist is at 21:40 on Friday."),
    # the order of a sequence stays bound to its noun
    ("Kit handed out on day 2 of camp.", "Kit is handed out in the second week of camp."),
    # `once` opening a clause is no frequency: it does not answer for `once a week`
    ("Water the ferns once a week.", "Water the ferns once the soil is dry."),
    # a floor's order said as `fourth-floor` still binds what stands there (the sequence noun's key is one item
    # with the ordinal for crossed associations, not a second)
    (["Meeting room 2nd floor: projector EB-X51.", "4th floor: screen, cable HC-200."],
     "The fourth-floor meeting room has the EB-X51 projector; the second floor has a screen and the HC-200 cable."),
    # an amount's bound keeps its edge (`4.0 or below` is not `below 4.0`)
    ("Call the nurse if glucose is 4.0 or below.", "Call the nurse if glucose is below 4.0."),
    # a limit is a most, not a least
    ("Weight limit on the bridge: 7.5 t.", "Bridge: weight at least 7.5 tonnes."),
])
def test_a_format_rule_does_not_lend_a_value_it_does_not_state(source, body):
    assert not check_strict(source if isinstance(source, list) else [source], body).passed
