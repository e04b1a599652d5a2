"""The labels of the second outside store (outside2_notes.py holds its memories): duplicate groups, by document
key, and look-alike pairs with what tells each pair apart. Written blind to memgui's code, with the notes."""

DUP_GROUPS = [
    ["g01a", "g01b", "g01c"], ["g02a", "g02b", "g02c"], ["g03a", "g03b"],
    ["g04a", "g04b", "g04c"], ["g05a", "g05b", "g05c"], ["g06a", "g06b", "g06c"],
    ["g07a", "g07b", "g07c"], ["g08a", "g08b"], ["g09a", "g09b", "g09c"],
    ["g10a", "g10b", "g10c"], ["g11a", "g11b", "g11c"], ["g12a", "g12b"],
    ["g13a", "g13b", "g13c"], ["g14a", "g14b", "g14c"], ["g15a", "g15b", "g15c"],
    ["g16a", "g16b"], ["g17a", "g17b"], ["g18a", "g18b"], ["g19a", "g19b"],
    ["g20a", "g20b", "g20c"], ["g21a", "g21b", "g21c", "g21d"], ["g22a", "g22b"],
    ["g23a", "g23b"], ["g24a", "g24b", "g24c"], ["g25a", "g25b", "g25c"],
    ["g26a", "g26b"],
]

LOOKALIKES = [
    ["g11a", "l01b", "different builder, price and outcome: Brunel Build £68,400 inc VAT, 14 weeks, chosen "
                     "vs Harlow & Sons £74,500 inc VAT, 12 weeks, rejected"],
    ["g12b", "l02b", "different neighbour and opposite outcome: no. 41 Delaneys consented, no surveyor "
                     "vs no. 45 Joan Pike dissented, surveyor Lewis Crane ~£950"],
    ["g20a", "l03b", "different year, venue and facts: Clifton Rockets 2025-06-22 at Coombe Dingle, £40 "
                     "vs 2024-06-23 at Filton, 3rd in group A, £35"],
    ["g22a", "l04b", "different product, size and price: Oat Speckle mug 350 ml £28 "
                     "vs Oat Speckle espresso cup 90 ml £16 (3 for £45)"],
    ["g19a", "l05b", "different person and drug: Tom cetirizine 10 mg daily May-Aug "
                     "vs Zosia loratadine 5 mg syrup on high-pollen days"],
    ["l06a", "l06b", "different occasion and date: Hannah's birthday 2 August (1984) "
                     "vs wedding anniversary 22 August (2011)"],
    ["g08a", "l07b", "different firing: glaze cone 6 ~1222 °C £12/shelf "
                     "vs bisque cone 04 ~1060 °C £8/shelf, Mondays, unload after 24h"],
    ["g03a", "l08b", "different team, day, time and pitch: U11 Tuesday 18:00-19:15 pitch 2 (Tom) "
                     "vs U13 Wednesday 18:30-19:45 pitch 1 (Dean Roper)"],
    ["l09a", "l09b", "different week and opposite swap outcome: on-call w/c 2025-03-10, swap with Ellie Nash agreed "
                     "vs w/c 2025-05-05, swap not agreed"],
    ["g09a", "l10b", "different applicant, project, ref and date: Tom's rear extension 24/04418/H submitted 2024-10-07 "
                     "vs no. 41's loft dormer 24/05102/H submitted 2024-11-04"],
    ["g06b", "l11b", "different destination and price: UK Tracked 48, buyer pays £5.95 flat "
                     "vs EU International Tracked £18.50 flat, no US"],
    ["g17b", "l12b", "different person, town and number: Tom's mum Krystyna, Swindon, 01632 960774 "
                     "vs Hannah's mum Pauline, Weston-super-Mare, 01632 960447"],
    ["g01a", "l13b", "different body, number, date and fee: GPhC registration 2071846, renew by 31 May, £257 "
                     "vs RPS membership 0805519, renews 1 January, £235"],
    ["l14a", "l14b", "different car and owner: Tom's 2019 Kia Niro PHEV WU19 KXA "
                     "vs Hannah's 2015 VW Polo WR15 BKX"],
    ["l15a", "l15b", "different kit, colours swapped: home navy shirts/white shorts/sky socks "
                     "vs away sky shirts/navy shorts/white socks"],
    ["l16a", "l16b", "opposite direction and different items: Tom lent Dean Roper the gazebo and 20 cones "
                     "vs Tom borrowed 2 pop-up goals from Dean Roper"],
]
