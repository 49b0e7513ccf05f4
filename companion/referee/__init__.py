"""The live referee: tracker (observations → moves → rulings), events, journal."""
