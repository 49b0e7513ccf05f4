"""Observers: rectified views of one board region → an Observation with a confidence per cell."""
