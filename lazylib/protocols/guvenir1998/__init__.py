"""Part III, Güvenir & Akkuş (1998): the protocol and its claims."""
